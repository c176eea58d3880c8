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
