// Drives headless Chromium through the engines' own loaders (issue 15):
//   node roundtrip.mjs NODE_MODULES SITE OUT JOBS.json
// SITE is a folder laid out like a web root (pixi.html, phaser.html,
// capture.js, sheets/...; node_modules is mapped to NODE_MODULES).  Pages
// are opened at http://bonebake.test/ and every request is answered from
// SITE by Playwright's request interception: nothing is served, and any
// other address is refused (and fails the run).  For each job the page
// returns the frames it drew; each is written to OUT/<job id>/<name>.png
// (straight RGBA), OUT/<job id>/engine.json lists what the engine
// reported (rotated, trimmed, pivot, animations) and rotated.txt the names
// of the frames it took as rotated.  A page that returns `boxes` (the
// *-variants pages) gets them written to OUT/<job id>/boxes.json.
import fs from 'fs';
import path from 'path';
import { createRequire } from 'module';

const [nodeModules, site, out, jobsFile] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeModules), 'x.js'));
const { chromium } = require('playwright-core');
const { PNG } = require('pngjs');
const ORIGIN = 'http://bonebake.test/';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
	'.json': 'application/json', '.png': 'image/png' };

function local(url) {
	const rel = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
	const root = rel.startsWith('node_modules/') ? path.resolve(nodeModules, '..') : path.resolve(site);
	const file = path.resolve(root, rel);
	return file.startsWith(root + path.sep) ? file : null;
}

const jobs = JSON.parse(fs.readFileSync(jobsFile, 'utf8'));
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync',
		'--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
let failed = false;
try {
	for (const job of jobs) {
		const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
		const page = await context.newPage();
		const problems = [];
		page.on('pageerror', (e) => problems.push('page error: ' + e.message));
		page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
		await page.route('**/*', async (route) => {
			const url = route.request().url();
			if (!url.startsWith(ORIGIN)) {
				problems.push('refused a request outside the test: ' + url);
				return route.abort();
			}
			const file = local(url);
			if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
				problems.push('not found: ' + url);
				return route.fulfill({ status: 404, body: 'not found' });
			}
			return route.fulfill({ status: 200, body: fs.readFileSync(file),
				contentType: TYPES[path.extname(file)] || 'application/octet-stream' });
		});
		await page.goto(ORIGIN + job.page);
		let result;
		try {
			result = await page.evaluate((j) => window.bbRun(j), job);
		} catch (e) {
			problems.push('bbRun: ' + e.message);
		}
		await context.close();
		if (problems.length || !result) {
			console.error(`${job.id}: ${problems.join('; ') || 'no result'}`);
			failed = true;
			continue;
		}
		const dir = path.join(out, job.id);
		if (result.boxes) {       // the variants pages: drawn rectangles
			fs.mkdirSync(dir, { recursive: true });
			fs.writeFileSync(path.join(dir, 'boxes.json'), JSON.stringify(result.boxes, null, 1));
			console.log(`${job.id}: ${result.boxes.length} frames drawn`);
			continue;
		}
		const meta = { pages: result.pages, animations: result.animations, frames: [] };
		for (const f of result.frames) {
			const png = new PNG({ width: f.w, height: f.h });
			Buffer.from(f.rgba, 'base64').copy(png.data);
			const file = path.join(dir, f.name.replace(/_\d+$/, '') , f.name + '.png');
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, PNG.sync.write(png));
			meta.frames.push({ name: f.name, w: f.w, h: f.h, rotated: f.rotated,
				trimmed: f.trimmed, pivot: f.pivot });
		}
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, 'engine.json'), JSON.stringify(meta, null, 1));
		fs.writeFileSync(path.join(dir, 'rotated.txt'), result.frames.filter((f) => f.rotated)
			.map((f) => f.name + '\n').sort().join(''));
		console.log(`${job.id}: ${result.frames.length} frames from ${result.pages} page(s)`);
	}
} finally {
	await browser.close();
}
process.exit(failed ? 1 : 0);
