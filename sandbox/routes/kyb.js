'use strict';

// KYB: company search, company details (+ include packages), document retrieval,
// company profile list and countries (older upper-case /KYB generation). By generation: g2 answers
// the search un-enveloped and the details as {status: "success", requestId, companyId, timestamp,
// data: {company}} with the packages inside the company; g3 wraps both in {status: true, data}, the
// packages beside the company, with metadata. Retrieving a register document answers its PDF in both;
// a transparency-register entry answers JSON (enveloped in g3).

const crypto = require('node:crypto');
const { ApiError, found, ok, boundedSet } = require('../http-util');
const v = require('../validation');
const { STORE_LIMIT } = require('../constants');
const { buildPdf } = require('../files');
const { generationOf, inEnvelope } = require('../generation');
const {
	COMPANY_BY_ID,
	COMPANY_PROFILES,
	COUNTRIES,
	INCLUDE_PACKAGES,
	INCLUDE_SECTIONS,
	LINK_TOKENS,
	searchCompanies,
	companyDetails,
} = require('../data');

function search({ body, state }) {
	const name = v.requireString(body, 'name');
	const country = v.optionalPattern(body, 'country', /^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in upper case');
	const registrationNumber = v.optionalString(body, 'registrationNumber', { nonBlank: true });
	const transactionId = crypto.randomUUID();
	const results = searchCompanies(name, country, registrationNumber);
	boundedSet(
		state.searches,
		transactionId,
		{ transactionId, name, country: country || null, companyIds: new Set(results.map((r) => r.company.companyId)) },
		STORE_LIMIT,
	);
	const companies = results.map(({ company: c, score }) => ({
		companyId: c.companyId,
		transactionId,
		name: c.name,
		legalName: c.legalName,
		registrationNumber: c.registrationNumber,
		country: c.country,
		status: c.status,
		legalForm: c.legalForm,
		score,
	}));
	return ok(inEnvelope(state, { companies }));
}

function readInclude(body) {
	const include = v.optionalObject(body, 'include');
	const enabled = [];
	if (include === undefined) return enabled;
	for (const [key, value] of Object.entries(include)) {
		if (!INCLUDE_PACKAGES.includes(key)) {
			throw v.bad(`include.${key} is not a known package (known: ${INCLUDE_PACKAGES.join(', ')})`);
		}
		if (typeof value !== 'boolean') throw v.bad(`include.${key} must be a boolean`);
		if (value) enabled.push(key);
	}
	return enabled;
}

function details({ body, state }) {
	const transactionId = v.optionalString(body, 'transactionId', { nonBlank: true });
	const companyId = v.requireString(body, 'companyId');
	const enabled = readInclude(body);
	v.optionalInteger(body, 'timeoutMs', { min: 1 });
	const company = found(COMPANY_BY_ID, companyId, 'Company');
	// A transactionId, when sent, must be the search's that found the company.
	const searchRecord = transactionId === undefined ? undefined : state.searches.get(transactionId);
	if (transactionId !== undefined && !(searchRecord && searchRecord.companyIds.has(companyId))) {
		throw new ApiError(404, 'Company not found for this transaction');
	}
	const packages = Object.fromEntries(INCLUDE_PACKAGES.filter((key) => enabled.includes(key)).map((key) => [key, INCLUDE_SECTIONS[key](company)]));
	if (generationOf(state) === 'g2') {
		return ok({
			status: 'success',
			requestId: crypto.randomUUID(),
			companyId,
			timestamp: new Date().toISOString(),
			data: { company: { ...companyDetails(company), ...packages } },
		});
	}
	const data = { company: companyDetails(company), ...packages };
	const fields = Object.keys(data.company).length;
	const filled = Object.values(data.company).filter((x) => x !== null && !(Array.isArray(x) && x.length === 0)).length;
	return ok({
		...inEnvelope(state, data),
		metadata: {
			confidence: company.status === 'dissolved' ? 0.81 : 0.97,
			completeness: Math.round((filled / fields) * 100) / 100,
			source: 'sandbox-registry',
			sourceTst: '2024-06-01T00:00:00.000Z',
			transactionId: transactionId === undefined ? null : transactionId,
			includedPackages: enabled,
		},
	});
}

/** A register document as its PDF; a transparency-register entry as JSON. */
function documentRetrieve({ body, state }) {
	const linkToken = v.requireString(body, 'linkToken');
	const entry = found(LINK_TOKENS, linkToken, 'Document');
	if (entry.item.documentId === undefined) {
		return ok(inEnvelope(state, { linkToken, companyId: entry.company.companyId, entry: { ...entry.item }, retrievedAt: new Date().toISOString() }));
	}
	const filename = `${entry.item.documentId}.pdf`;
	return {
		status: 200,
		raw: buildPdf(`${entry.item.name} of ${entry.company.legalName}`),
		headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${filename}"` },
	};
}

function envelope(data, message) {
	return { error: false, message, version: '1.0.0', data };
}

/** Positive integer from a query value (default when absent, at most `max`). Throws 400 otherwise. */
function queryInt(query, name, dflt, max = Infinity) {
	const raw = query[name];
	if (raw === undefined) return dflt;
	const n = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
	if (!(n >= 1 && n <= max)) {
		throw v.bad(max === Infinity ? `${name} must be a positive integer` : `${name} must be an integer between 1 and ${max}`);
	}
	return n;
}

function companyProfile({ query }) {
	const page = queryInt(query, 'page', 1);
	const limit = queryInt(query, 'limit', 10, 100);
	const total = COMPANY_PROFILES.length;
	const start = (page - 1) * limit;
	const items = COMPANY_PROFILES.slice(start, start + limit);
	const resolved = COMPANY_PROFILES.filter((p) => p.companyFetchedDataStatus === 'completed').length;
	const countryNames = [...new Set(COMPANY_PROFILES.map((p) => p.countryName))];
	return ok(
		envelope(
			{
				resolvedPercentage: Math.round((resolved / total) * 10000) / 100,
				resolvedCount: resolved,
				fetchedCountriesWithStates: countryNames.map((name) => ({
					countryName: name,
					states: [...(COUNTRIES.find((c) => c.countryName === name) || { states: [] }).states],
				})),
				fetchedCountries: countryNames,
				secondarySource: false,
				requestStatus: 'COMPLETED',
				kybRequestData: items,
				pagination: {
					total,
					perPage: limit,
					currentPage: page,
					lastPage: Math.max(1, Math.ceil(total / limit)),
					from: items.length ? start + 1 : 0,
					to: items.length ? start + items.length : 0,
				},
			},
			'Company profiles fetched successfully',
		),
	);
}

function countries() {
	return ok(envelope({ countries: COUNTRIES.map((c) => ({ ...c, states: [...c.states] })) }, 'Countries fetched successfully'));
}

module.exports = [
	{ method: 'POST', path: '/kyb/search', handler: search },
	{ method: 'POST', path: '/kyb/company/details', handler: details },
	{ method: 'POST', path: '/kyb/company/document/retrieve', handler: documentRetrieve },
	{ method: 'GET', path: '/KYB/companyProfile', handler: companyProfile },
	{ method: 'GET', path: '/KYB/countries', handler: countries },
];
