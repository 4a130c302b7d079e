'use strict';

function median(values) {
	const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
	if (!v.length) return null;
	const mid = Math.floor(v.length / 2);
	return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

const max = (values) => {
	const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x));
	return v.length ? Math.max(...v) : null;
};
const min = (values) => {
	const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x));
	return v.length ? Math.min(...v) : null;
};

module.exports = { median, max, min };
