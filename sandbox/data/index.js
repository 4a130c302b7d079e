'use strict';

// Deterministic fixture data, one file per API group.

module.exports = {
	...require('./aml'),
	...require('./kyb'),
	...require('./payments'),
	...require('./document'),
	...require('./qes'),
	...require('./address'),
	...require('./identity'),
	...require('./phone-intelligence'),
};
