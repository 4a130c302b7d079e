'use strict';
// The rows `npm start` and the browser suite put into an example's data table when they create it, so
// that each example runs through from every start as imported: on an empty customer book, "Execute
// workflow" stops at the first read (no row, no item) and the "Customer Left" webhook answers 500.
// customer_book (examples/customer-book-*.json): one customer clear, one on the emulator's sanction
// lists, and C-4711 (the customer the browser suite's CRM request says has left) already registered for
// monitoring, so that it can leave whichever start runs first.

const SAMPLE_ROWS = Object.freeze({
	customer_book: Object.freeze([
		{ customer_id: 'C-4711', name: 'Erika Mustermann', dob: '1964-08-12', monitoring_profile: 'C-4711' },
		{ customer_id: 'C-4712', name: 'Viktor Sanctioned', dob: '1970-01-15' },
		{ customer_id: 'C-4713', name: 'Jonas Weber', dob: null },
	]),
});

module.exports = { SAMPLE_ROWS };
