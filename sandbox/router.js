'use strict';

// Route table for the API: "/a/:param" patterns, matched per method; keys look like "GET /a/:param".

const { authRoute } = require('./auth');

function compile(route) {
	const names = [];
	const source = route.path
		.split('/')
		.map((part) => {
			if (part.startsWith(':')) {
				names.push(part.slice(1));
				return '([^/]+)';
			}
			return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		})
		.join('/');
	return { ...route, key: `${route.method} ${route.path}`, regex: new RegExp(`^${source}$`), names };
}

/** All API routes. `auth: false` skips the bearer check; `rateLimited: false` skips the rate limit. */
const ROUTES = [
	{ method: 'POST', path: '/auth', handler: authRoute, auth: false, rateLimited: false, formBody: true },
	...require('./routes/aml'),
	...require('./routes/kyb'),
	...require('./routes/payments'),
	...require('./routes/document'),
	...require('./routes/phone'),
	...require('./routes/qes'),
	...require('./routes/address'),
	...require('./routes/identity'),
	...require('./routes/phone-intelligence'),
	...require('./routes/hosted-journey'),
	...require('./routes/bank-payments'),
].map(compile);

/** Finds the route for a method and a path relative to the API base; null when none. */
function matchRoute(method, path) {
	for (const route of ROUTES) {
		if (route.method !== method) continue;
		const m = route.regex.exec(path);
		if (!m) continue;
		const params = {};
		let valid = true;
		route.names.forEach((name, i) => {
			try {
				params[name] = decodeURIComponent(m[i + 1]);
			} catch {
				valid = false;
			}
		});
		if (valid) return { route, params, key: route.key };
	}
	return null;
}

module.exports = { ROUTES, matchRoute };
