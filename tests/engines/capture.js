// Shared by pixi.html and phaser.html: copies the engine's canvas into a
// 2D canvas and returns the top-left w x h pixels as straight RGBA, base64.
'use strict';
window.bbCapture = (function () {
	let scratch = null;
	return function (source, w, h) {
		if (!scratch || scratch.width !== source.width || scratch.height !== source.height) {
			scratch = document.createElement('canvas');
			scratch.width = source.width;
			scratch.height = source.height;
		}
		const ctx = scratch.getContext('2d', { willReadFrequently: true });
		ctx.clearRect(0, 0, scratch.width, scratch.height);
		ctx.drawImage(source, 0, 0);
		const px = ctx.getImageData(0, 0, w, h).data;
		let s = '';
		for (let i = 0; i < px.length; i += 0x8000)
			s += String.fromCharCode.apply(null, px.subarray(i, i + 0x8000));
		return btoa(s);
	};
})();

// The drawn rectangles of the engine's canvas: [x0, y0, x1, y1] (x1, y1
// exclusive) of the pixels with alpha > 0 ("any") and alpha >= 128
// ("solid"), or null when nothing is drawn.
window.bbBoxes = function (source) {
	const c = document.createElement('canvas');
	c.width = source.width;
	c.height = source.height;
	const ctx = c.getContext('2d', { willReadFrequently: true });
	ctx.drawImage(source, 0, 0);
	const px = ctx.getImageData(0, 0, c.width, c.height).data;
	const any = [c.width, c.height, 0, 0], solid = [c.width, c.height, 0, 0];
	for (let y = 0; y < c.height; y++)
		for (let x = 0; x < c.width; x++) {
			const a = px[(y * c.width + x) * 4 + 3];
			for (const [box, on] of [[any, a > 0], [solid, a >= 128]])
				if (on) {
					box[0] = Math.min(box[0], x);
					box[1] = Math.min(box[1], y);
					box[2] = Math.max(box[2], x + 1);
					box[3] = Math.max(box[3], y + 1);
				}
		}
	return { any: any[2] ? any : null, solid: solid[2] ? solid : null };
};
