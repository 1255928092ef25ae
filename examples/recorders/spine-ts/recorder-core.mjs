// bonescope attach recorder for the spine-ts family (spine-core 3.8, 4.0-4.3): the shared core.
// Protocol: docs/ATTACH-PROTOCOL.md. Only public API: the AnimationState's methods are wrapped
// on the instance, one listener records callbacks, TrackEntry properties are diffed.
//
// Why diff entry properties instead of wrapping setters: they are plain fields the runtime
// itself writes too (delay, trackTime, mixDuration on queueing); the state reads them only
// inside its own calls, so their values at each call boundary decide everything. Comparing
// them with a snapshot taken after every state call (and at the first callback of a drain)
// captures exactly what the game changed and when, without telling runtime writes apart.

const LIMIT = 1024 * 1024; // a line's bytes (protocol limit)
const MAX_QUEUE_LINES = 4096;
const MAX_QUEUE_BYTES = 16 * 1024 * 1024;

// [wire name, field names to try on the entry object]
const PROPS = [
	["mixDuration", ["mixDuration"]], ["trackEnd", ["trackEnd"]], ["alpha", ["alpha"]], ["timeScale", ["timeScale"]],
	["delay", ["delay"]], ["eventThreshold", ["eventThreshold"]],
	["attachmentThreshold", ["mixAttachmentThreshold", "attachmentThreshold"]],
	["drawOrderThreshold", ["mixDrawOrderThreshold", "drawOrderThreshold"]],
	["alphaAttachmentThreshold", ["alphaAttachmentThreshold"]], ["trackTime", ["trackTime"]],
	["animationStart", ["animationStart"]], ["animationEnd", ["animationEnd"]], ["animationLast", ["animationLast"]],
	["loop", ["loop"]], ["holdPrevious", ["holdPrevious", "keepHold"]], ["reverse", ["reverse"]],
	["shortestRotation", ["shortestRotation"]], ["mixBlend", ["mixBlend", "additive"]],
];
const BLENDS = ["setup", "first", "replace", "add"]; // spine.MixBlend enum order

function wireValue(field, v) {
	if (field == "mixBlend") return BLENDS[v] ?? null;
	if (field == "additive") return v ? "add" : "replace";
	return v;
}

function fieldsOf(entry) {
	const out = [];
	for (const [wire, names] of PROPS) {
		const f = names.find((n) => n in entry && typeof entry[n] != "function");
		if (f) out.push([wire, f]);
	}
	return out;
}

const STATE_CALLS = {
	setAnimation: (a) => ({ track: a[0], animation: animName(a[1]), loop: !!a[2] }),
	setAnimationWith: (a) => ({ call: "setAnimation", track: a[0], animation: animName(a[1]), loop: !!a[2] }),
	addAnimation: (a) => ({ track: a[0], animation: animName(a[1]), loop: !!a[2], delay: a[3] || 0 }),
	addAnimationWith: (a) => ({ call: "addAnimation", track: a[0], animation: animName(a[1]), loop: !!a[2], delay: a[3] || 0 }),
	setEmptyAnimation: (a) => ({ track: a[0], mixDuration: a[1] || 0 }),
	addEmptyAnimation: (a) => ({ track: a[0], mixDuration: a[1] || 0, delay: a[2] || 0 }),
	setEmptyAnimations: (a) => ({ mixDuration: a[0] || 0 }),
	clearTrack: (a) => ({ track: a[0] }),
	clearTracks: () => ({}),
	update: (a) => ({ dt: a[0] }),
	apply: () => ({}),
};
const DATA_CALLS = {
	setMix: (a) => ({ from: animName(a[0]), to: animName(a[1]), duration: a[2] }),
	setMixWith: (a) => ({ call: "setMix", from: animName(a[0]), to: animName(a[1]), duration: a[2] }),
};
const animName = (x) => (x == null ? null : typeof x == "string" ? x : x.name);

/// Bounded line queue in front of a sink; never blocks the game: when full, drops and counts.
class Queue {
	constructor() { this.lines = []; this.bytes = 0; this.dropped = 0; this.pendingGap = 0; this.sink = null; this.closed = false; }
	push(line) {
		if (this.closed) return;
		if (line.length > LIMIT || this.lines.length >= MAX_QUEUE_LINES || this.bytes + line.length > MAX_QUEUE_BYTES) {
			this.dropped++; this.pendingGap++; return;
		}
		if (this.pendingGap) { const g = JSON.stringify({ kind: "gap", dropped: this.pendingGap }); this.pendingGap = 0; this.lines.push(g); this.bytes += g.length; }
		this.lines.push(line); this.bytes += line.length;
		this.pump();
	}
	pump() {
		if (!this.sink) return;
		while (this.lines.length && this.sink.ready()) {
			const l = this.lines.shift(); this.bytes -= l.length;
			this.sink.write(l + "\n");
		}
	}
}

async function openSink(to, token, onReady) {
	if (to.startsWith("file:")) {
		const fs = await import("node:fs");
		const stream = fs.createWriteStream(to.slice(5));
		let ok = true;
		stream.on("drain", () => { ok = true; onReady(); });
		return { ready: () => ok, write: (s) => { ok = stream.write(s); }, end: () => new Promise((r) => stream.end(r)) };
	}
	if (to.startsWith("tcp://")) {
		const net = await import("node:net");
		const u = new URL(to);
		const sock = net.connect({ host: u.hostname, port: Number(u.port) });
		sock.on("error", () => {});
		await new Promise((res, rej) => { sock.once("connect", res); sock.once("error", rej); });
		let ok = true;
		sock.on("drain", () => { ok = true; onReady(); });
		return { ready: () => ok, write: (s) => { ok = sock.write(s); }, end: () => new Promise((r) => sock.end(r)) };
	}
	if (to.startsWith("ws://")) {
		const url = new URL(to);
		url.searchParams.set("token", token || "");
		if (globalThis.WebSocket) return browserWs(url, onReady);
		return nodeWs(url, onReady);
	}
	throw new Error(`recorder: "to" must be tcp://, ws:// or file: (got ${to})`);
}

function browserWs(url, onReady) {
	return new Promise((res, rej) => {
		const ws = new WebSocket(url.toString());
		ws.onerror = rej;
		ws.onopen = () => {
			setInterval(() => onReady(), 50).unref?.();
			res({ ready: () => ws.bufferedAmount < 4 * 1024 * 1024, write: (s) => ws.send(s),
				end: () => new Promise((r) => { const t = setInterval(() => { if (!ws.bufferedAmount) { clearInterval(t); ws.close(); r(); } }, 10); }) });
		};
	});
}

// A minimal WebSocket client for Node without a global WebSocket (Node < 22): masked text frames.
async function nodeWs(url, onReady) {
	const net = await import("node:net");
	const crypto = await import("node:crypto");
	const sock = net.connect({ host: url.hostname, port: Number(url.port) });
	sock.on("error", () => {});
	await new Promise((res, rej) => { sock.once("connect", res); sock.once("error", rej); });
	const key = crypto.randomBytes(16).toString("base64");
	sock.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
		`Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
	await new Promise((res, rej) => {
		let buf = "";
		const on = (d) => {
			buf += d.toString("latin1");
			const end = buf.indexOf("\r\n\r\n");
			if (end < 0) return;
			sock.off("data", on);
			if (/^HTTP\/1\.1 101/.test(buf)) res(); else rej(new Error("websocket refused: " + buf.split("\r\n")[0]));
		};
		sock.on("data", on);
		sock.once("error", rej);
	});
	let ok = true;
	sock.on("drain", () => { ok = true; onReady(); });
	const frame = (opcode, payload) => {
		const len = payload.length;
		const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len])
			: len < 65536 ? Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 255])
			: (() => { const h = Buffer.alloc(10); h[0] = 0x80 | opcode; h[1] = 0x80 | 127; h.writeBigUInt64BE(BigInt(len), 2); return h; })();
		const mask = crypto.randomBytes(4);
		const body = Buffer.from(payload);
		for (let i = 0; i < body.length; i++) body[i] ^= mask[i & 3];
		return Buffer.concat([head, mask, body]);
	};
	return {
		ready: () => ok,
		write: (s) => { ok = sock.write(frame(1, Buffer.from(s, "utf8"))); },
		end: () => new Promise((r) => { sock.write(frame(8, Buffer.from([0x03, 0xe8]))); sock.end(r); }),
	};
}

async function helloOf(skeleton, runtime, token, skins) {
	const sk = typeof skeleton == "string" ? { path: skeleton } : { ...(skeleton || {}) };
	const out = { path: sk.path ?? null };
	if (sk.size != null) out.size = sk.size;
	if (sk.sha256 != null) out.sha256 = sk.sha256;
	if (sk.path && (out.size == null || out.sha256 == null) && globalThis.process?.versions?.node) {
		try {
			const fs = await import("node:fs");
			const crypto = await import("node:crypto");
			const bytes = fs.readFileSync(sk.path);
			out.size = bytes.length;
			out.sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
		} catch { /* the path may be the game's own; bonescope reports the mismatch */ }
	}
	const [name, version] = typeof runtime == "string" ? runtime.split(/\s+/, 2) : [runtime?.name, runtime?.version];
	const hello = { kind: "hello", protocol: "bonescope-attach", version: 1, token: token || "",
		runtime: { name: name || "spine-ts", version: version || "" }, skeleton: out };
	if (skins) hello.skins = skins;
	return JSON.stringify(hello);
}

/// Wraps `state` and records its calls and callbacks to `to`. Returns `{ close() }`.
export function attachRecorderCore(state, opts, defaults) {
	const { skeleton, to, token, runtime = defaults.runtime, skins } = opts;
	const q = new Queue();
	const ids = new Map();
	let nextId = 1;
	const idOf = (e) => { if (!ids.has(e)) ids.set(e, nextId++); return ids.get(e); };
	const snaps = new Map(); // entry -> {wire: value}
	let frame = 0, items = [], frames = 0;
	let depth = 0, inListener = false, firstCallbackOfCall = false;

	const snapshot = (e) => { const s = {}; for (const [w, f] of fieldsOf(e)) s[w] = wireValue(f, e[f]); snaps.set(e, s); };
	const resnapAll = () => { for (const e of ids.keys()) snapshot(e); };
	const diffAll = () => {
		for (const e of ids.keys()) {
			const old = snaps.get(e);
			if (!old) { snapshot(e); continue; }
			for (const [w, f] of fieldsOf(e)) {
				const v = wireValue(f, e[f]);
				if (!Object.is(v, old[w]) && !(typeof v == "number" && Number.isNaN(v) && Number.isNaN(old[w]))) {
					items.push({ call: "entry", entry: ids.get(e), property: w, value: v, ...(depth > 0 ? { nested: true } : {}) });
					old[w] = v;
				}
			}
		}
	};
	const flushFrame = () => {
		q.push(JSON.stringify({ kind: "frame", frame, items }));
		frames++;
		items = [];
	};
	const recording = () => depth == 0 || inListener;

	const wrap = (target, name, describe, isState) => {
		const orig = target[name];
		if (typeof orig != "function") return;
		target[name] = function (...args) {
			if (!recording()) return orig.apply(this, args); // the runtime calling itself
			const nested = depth > 0;
			diffAll();
			const d = describe(args);
			const item = { call: d.call || name, ...d };
			if (nested) item.nested = true;
			if (isState && name == "update" && !nested) { flushFrame(); frame++; }
			items.push(item);
			const saveListener = inListener, saveFirst = firstCallbackOfCall;
			depth++; inListener = false; firstCallbackOfCall = true;
			try {
				const r = orig.apply(this, args);
				if (r && typeof r == "object" && "trackIndex" in r) item.entry = idOf(r);
				return r;
			} finally {
				depth--; inListener = saveListener; firstCallbackOfCall = saveFirst;
				resnapAll();
			}
		};
	};
	for (const [n, d] of Object.entries(STATE_CALLS)) wrap(state, n, d, true);
	if (state.data) for (const [n, d] of Object.entries(DATA_CALLS)) wrap(state.data, n, d, false);

	// Plain fields set by the game: accessors on the instances.
	const field = (target, prop, call, key) => {
		if (!target || !(prop in target)) return;
		let value = target[prop];
		Object.defineProperty(target, prop, {
			configurable: true, enumerable: true,
			get: () => value,
			set: (v) => { if (recording()) { diffAll(); items.push({ call, [key]: v, ...(depth > 0 ? { nested: true } : {}) }); } value = v; },
		});
	};
	field(state, "timeScale", "timeScale", "value");
	field(state.data, "defaultMix", "defaultMix", "duration");

	const record = (type, e, ev) => {
		// The runtime wrote entry fields before its drain; at the first callback of a call
		// those writes are the runtime's, later changes are the game's listeners'.
		if (firstCallbackOfCall) { resnapAll(); firstCallbackOfCall = false; } else diffAll();
		const rec = { callback: type, track: e.trackIndex, entry: idOf(e), animation: e.animation ? e.animation.name : null,
			trackTime: e.trackTime };
		if (typeof e.getAnimationTime == "function") rec.animationTime = e.getAnimationTime();
		if (ev) {
			rec.event = { name: ev.data.name, int: ev.intValue, float: ev.floatValue, string: ev.stringValue, time: ev.time };
			if (ev.volume !== undefined) { rec.event.volume = ev.volume; rec.event.balance = ev.balance; }
		}
		items.push(rec);
		if (type == "dispose") { ids.delete(e); snaps.delete(e); } else snapshot(e);
		inListener = true;
	};
	const head = {
		start: (e) => record("start", e), interrupt: (e) => record("interrupt", e), end: (e) => record("end", e),
		dispose: (e) => record("dispose", e), complete: (e) => record("complete", e), event: (e, ev) => record("event", e, ev),
	};
	const leave = () => { diffAll(); inListener = false; };
	const tail = { start: leave, interrupt: leave, end: leave, dispose: leave, complete: leave, event: leave };
	state.addListener(head);
	state.addListener(tail);
	// Keep `tail` after every listener the game adds later.
	const addListener = state.addListener;
	state.addListener = function (l) { state.removeListener(tail); addListener.call(this, l); addListener.call(this, tail); };

	const ready = (async () => {
		const hello = await helloOf(skeleton, runtime, token, skins);
		q.lines.unshift(hello); q.bytes += hello.length;
		q.sink = await openSink(to, token, () => q.pump());
		q.pump();
	})();
	ready.catch(() => { q.closed = true; });
	return {
		get dropped() { return q.dropped; },
		async close() {
			flushFrame();
			q.push(JSON.stringify({ kind: "bye", frames, dropped: q.dropped }));
			q.closed = true;
			await ready;
			while (q.lines.length) {
				q.pump();
				if (q.lines.length) await new Promise((r) => setTimeout(r, 5));
			}
			await q.sink.end();
		},
	};
}
