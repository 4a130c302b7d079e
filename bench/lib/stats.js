'use strict';

/** The values that are finite numbers: a missing measurement (null, NaN) is left out. */
const finite = (values) => values.filter((x) => typeof x === 'number' && Number.isFinite(x));

function median(values) {
	const v = finite(values).sort((a, b) => a - b);
	if (!v.length) return null;
	const mid = Math.floor(v.length / 2);
	return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

const max = (values) => (finite(values).length ? Math.max(...finite(values)) : null);
const min = (values) => (finite(values).length ? Math.min(...finite(values)) : null);

module.exports = { median, max, min };
