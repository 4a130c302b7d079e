'use strict';
// Peak resident memory of a process and all its descendants (n8n and its task runner), sampled from
// /proc every 100 ms: VmRSS of each process in the tree, summed; the maximum sum is the peak.

const fs = require('node:fs');

function readStatus(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	} catch {
		return null;
	}
}

function rssKb(status) {
	const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
	return m ? Number(m[1]) : 0;
}

/** pid -> ppid for every process visible in /proc. */
function parentMap() {
	const map = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			// pid (comm) state ppid ...; comm may hold spaces and parentheses, so split after the last ')'.
			const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			map.set(Number(entry), Number(rest[1]));
		} catch {
			/* gone */
		}
	}
	return map;
}

function treePids(rootPid) {
	const parents = parentMap();
	const children = new Map();
	for (const [pid, ppid] of parents) {
		if (!children.has(ppid)) children.set(ppid, []);
		children.get(ppid).push(pid);
	}
	const out = [];
	const stack = [rootPid];
	while (stack.length) {
		const pid = stack.pop();
		out.push(pid);
		for (const c of children.get(pid) ?? []) stack.push(c);
	}
	return out;
}

/** Sum of VmRSS (kB) over the tree rooted at pid, and the number of live processes in it. */
function treeRssKb(rootPid) {
	let total = 0;
	let processes = 0;
	for (const pid of treePids(rootPid)) {
		const status = readStatus(pid);
		if (!status) continue;
		total += rssKb(status);
		processes++;
	}
	return { total, processes };
}

/**
 * Samples the tree of whatever pid `getPid()` returns (null while the process is not spawned yet).
 * stop() returns { peakKb, peakProcesses, samples, rootPeakKb }.
 */
function startSampler(getPid, { intervalMs = 100 } = {}) {
	let peakKb = 0;
	let rootPeakKb = 0;
	let peakProcesses = 0;
	let samples = 0;
	const tick = () => {
		const pid = getPid();
		if (!pid) return;
		const { total, processes } = treeRssKb(pid);
		if (processes === 0) return;
		samples++;
		if (total > peakKb) {
			peakKb = total;
			peakProcesses = processes;
		}
		const root = readStatus(pid);
		if (root) rootPeakKb = Math.max(rootPeakKb, rssKb(root));
	};
	const timer = setInterval(tick, intervalMs);
	return {
		stop() {
			clearInterval(timer);
			return { peakKb, rootPeakKb, peakProcesses, samples };
		},
	};
}

/**
 * CPU time in ms of a process's main thread, the one that runs its event loop (null: gone). A share
 * near 1 over a run says the process could not have done more work in it, whatever the API allowed.
 */
function mainThreadCpuMs(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
		// After "pid (comm) ": state is field 3, utime and stime are fields 14 and 15, in clock ticks (USER_HZ, 100 on Linux).
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return null;
	}
}

module.exports = { startSampler, treeRssKb, mainThreadCpuMs };
