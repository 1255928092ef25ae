// bonescope attach recorder for spine-ts 3.8 (the `spine` global of spine-core.js 3.8).
// The same wire format; 3.8 entries have attachmentThreshold / drawOrderThreshold and no
// reverse / shortestRotation / alphaAttachmentThreshold (properties are found by name, so
// the shared core handles both).
import { attachRecorderCore } from "./recorder-core.mjs";

export function attachRecorder(state, opts) {
	return attachRecorderCore(state, opts, { runtime: "spine-ts 3.8" });
}
