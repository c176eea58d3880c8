// Opens the gallery page (argv[2], a file:// URL) in headless Chromium
// through playwright-core, waits until the <video> (the WebM preview) of
// animation card argv[4] (its index on the page)
// reaches readyState 4, rewinds it to frame 0, draws that frame onto a
// canvas and compares it with render's PNG of frame 0 (argv[3]): pixels
// 4 px inside transparency must be transparent, pixels inside a flat
// opaque 7x7 patch within 16/255.  Prints one JSON line; exits 1 on a
// mismatch.
import fs from 'fs';
import path from 'path';
import { createRequire } from 'module';

const nodeModules = process.env.BONEBAKE_NODE_MODULES;
const require = createRequire(path.join(path.resolve(nodeModules), 'x.js'));
const { chromium } = require('playwright-core');
const { PNG } = require('pngjs');

const [url, pngPath, card] = process.argv.slice(2);
const png = PNG.sync.read(fs.readFileSync(pngPath));
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	// file:// pages are their own origin only with this flag: without it
	// the canvas the video is drawn on cannot be read back
	args: ['--allow-file-access-from-files', '--autoplay-policy=no-user-gesture-required'],
});
let got;
try {
	const page = await browser.newPage();
	await page.goto(url);
	got = await page.evaluate(async card => {
		const v = document.querySelector('#anim' + card + ' video');
		if (!v) return { error: 'no <video> on the page' };
		const t0 = performance.now();
		while (v.readyState < 4 && !v.error && performance.now() - t0 < 30000)
			await new Promise(r => setTimeout(r, 50));
		const ready = v.readyState;
		if (ready < 4) return { ready, error: v.error ? v.error.message : 'timeout' };
		v.pause();
		await new Promise(r => { v.addEventListener('seeked', r, { once: true }); v.currentTime = 0; });
		const c = document.createElement('canvas');
		c.width = v.videoWidth; c.height = v.videoHeight;
		const g = c.getContext('2d');
		g.drawImage(v, 0, 0);
		return { ready, w: c.width, h: c.height,
		         px: Array.from(g.getImageData(0, 0, c.width, c.height).data) };
	}, card);
} finally {
	await browser.close();
}
if (got.error) {
	console.log(JSON.stringify(got));
	process.exit(1);
}
const { w, h, px } = got;
const P = (x, y, k) => png.data[(y * png.width + x) * 4 + k];
const V = (x, y, k) => px[(y * w + x) * 4 + k];
let clear = 0, flat = 0, bad = [];
for (let y = 4; y < h - 4 && w === png.width && h === png.height; y++)
	for (let x = 4; x < w - 4; x++) {
		let around = true, same = P(x, y, 3) === 255;
		for (let j = -4; j <= 4; j++)
			for (let i = -4; i <= 4; i++) {
				if (P(x + i, y + j, 3) !== 0) around = false;
				if (Math.abs(i) <= 3 && Math.abs(j) <= 3)
					for (let k = 0; k < 4; k++)
						if (P(x + i, y + j, k) !== P(x, y, k)) same = false;
			}
		if (around) {
			clear++;
			if (V(x, y, 3) !== 0) bad.push(['transparent', x, y, V(x, y, 3)]);
		} else if (same) {
			flat++;
			for (let k = 0; k < 4; k++)
				if (Math.abs(V(x, y, k) - P(x, y, k)) > 16) { bad.push(['opaque', x, y, k]); break; }
		}
	}
const ok = w === png.width && h === png.height && clear > 1000 && flat > 1000 && !bad.length;
console.log(JSON.stringify({ ready: got.ready, w, h, clear, flat, bad: bad.slice(0, 5) }));
process.exit(ok ? 0 : 1);
