const path = require('path');
const { src, dest, series } = require('gulp');

// tsc emits only .js; n8n also needs each node's icons and codex (*.node.json) beside it in dist/.
function copyNodeAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist')));
}

function copyPackageIcons() {
	return src('icons/*.svg', { encoding: false }).pipe(dest(path.resolve('dist/icons')));
}

exports['build:icons'] = series(copyNodeAssets, copyPackageIcons);
