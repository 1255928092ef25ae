// A test game for `tests/attach_*.rs`: plays oracle scenarios (the official runtimes, run as
// black boxes through the oracle's scenario runner and its onState hook) with the bonescope
// recorder attached.
// node game.mjs --oracle DIR --runtime ID --corpus DIR --to URL|file:DIR/ --token T
//   [--only a,b] [--listener-test] SCENARIO.json...
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const a = { _: [] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
	if (argv[i] == "--listener-test") a.listenerTest = true;
	else if (argv[i].startsWith("--")) a[argv[i].slice(2)] = argv[++i];
	else a._.push(argv[i]);
}
const imp = (p) => import(pathToFileURL(p).href);
const { loadRuntime } = await imp(path.join(a.oracle, "lib/runtimes.mjs"));
const { runScenario } = await imp(path.join(a.oracle, "lib/scenario.mjs"));
const { chooseSkin } = await imp(path.join(a.oracle, "lib/poses.mjs"));
const here = path.dirname(new URL(import.meta.url).pathname);
const recDir = path.join(here, "../../examples/recorders/spine-ts");
const { attachRecorder } = await imp(path.join(recDir, a.runtime.startsWith("3.") ? "recorder-38.mjs" : "recorder.mjs"));
const rt = await loadRuntime(a.runtime, {});
const versions = { "3.8": "3.8", "4.2": "4.2.119", "4.3": "4.3.13", "4.0": "4.0.31", "4.1": "4.1.56" };

for (const file of a._) {
	const sc = JSON.parse(fs.readFileSync(file, "utf8"));
	if (!sc.name) sc.name = path.basename(file, ".json");
	const skelPath = path.resolve(a.corpus, sc.skeleton);
	let rec;
	const to = a.to.startsWith("file:") ? `file:${path.join(a.to.slice(5), sc.name + ".ndjson")}` : a.to;
	runScenario(rt, sc, fs.readFileSync(skelPath, "utf8"), {
		r: (x) => x, decimals: 4,
		onState: ({ state, data }) => {
			rec = attachRecorder(state, { skeleton: skelPath, to, token: a.token,
				runtime: `spine-ts ${versions[a.runtime] || a.runtime}`, skins: chooseSkin(sc.skeleton, data, sc.skin) || undefined });
			if (a.listenerTest) {
				// The game's own listener: a non-looping animation completing starts another one.
				state.addListener({ complete: (e) => { if (e.animation && !e.loop && e.trackIndex == 0) state.setAnimation(0, a.then || "walk", true); } });
			}
		},
	});
	await rec.close();
	console.log(`recorded ${sc.name}`);
}
