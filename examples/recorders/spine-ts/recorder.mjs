// bonescope attach recorder for spine-core 4.x (@esotericsoftware/spine-core: spine-webgl,
// canvas, pixi, phaser, threejs). Usage: README.md beside this file; protocol:
// docs/ATTACH-PROTOCOL.md.
import { attachRecorderCore } from "./recorder-core.mjs";

/**
 * Records every call on `state` and every callback it fires, frame by frame.
 * @param state an AnimationState
 * @param opts { skeleton: path string or { path, size, sha256 }, to: "tcp://127.0.0.1:PORT" |
 *   "ws://127.0.0.1:PORT" | "file:PATH", token, runtime: "spine-ts 4.2.119", skins?: [names] }
 * @returns { close(): Promise<void> } resolving when everything is flushed
 */
export function attachRecorder(state, opts) {
	return attachRecorderCore(state, opts, { runtime: "spine-ts 4" });
}
