'use strict';

/** The values that are finite numbers: a missing measurement (null, NaN) is left out. */
const finite = (values) => values.filter((x) => typeof x === 'number' && Number.isFinite(x));

function median(values) {
	const v = finite(values).sort((a, b) => a - b);
	if (!v.length) return null;
	const mid = Math.floor(v.length / 2);
	return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** The largest (`pick` Math.max) or smallest of the finite values; null when there is none. */
const extreme = (pick) => (values) => {
	const v = finite(values);
	return v.length ? pick(...v) : null;
};
const max = extreme(Math.max);
const min = extreme(Math.min);

module.exports = { median, max, min };
