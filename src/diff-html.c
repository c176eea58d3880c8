/* The `diff` command's static HTML report: one self-contained folder
 * (index.html and img/) with relative links, so CI can zip it as an
 * artifact.  Failures come first; every pair with something to look at shows
 * baseline, current and diff side by side, plus a slider / toggle view of
 * baseline against current.  Images load lazily and off-screen sections
 * skip layout, so reports with thousands of pairs stay usable. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff-run.h"

static const char CSS[] =
	":root{color-scheme:light dark;--fail:#c62828;--pass:#2e7d32;"
	"--warn:#ef6c00;--muted:#777}\n"
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 1.5em 3em}\n"
	"header{position:sticky;top:0;background:Canvas;padding:.5em 0;"
	"border-bottom:1px solid #8884;z-index:2}\n"
	"h1{font-size:1.3em;margin:.2em 0}\n"
	".options,.where{color:var(--muted);margin:.2em 0}\n"
	"section.pair{border-bottom:1px solid #8884;padding:1em 0;"
	"content-visibility:auto;contain-intrinsic-size:auto 480px}\n"
	"section.pair h2{font-size:1.05em;margin:0 0 .3em}\n"
	".badge{display:inline-block;padding:0 .5em;border-radius:3px;"
	"color:#fff;font-size:.85em;margin-right:.5em;background:var(--warn)}\n"
	".fail .badge,.size-mismatch .badge,.error .badge{background:var(--fail)}\n"
	".pass .badge{background:var(--pass)}\n"
	".views{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));"
	"gap:1em;align-items:start}\n"
	"figure{margin:0}\n"
	"figcaption{color:var(--muted);font-size:.9em}\n"
	"figure a{display:block}\n"
	"img{display:block;width:100%;height:auto;image-rendering:pixelated;"
	"background:repeating-conic-gradient(#bbb 0 25%,#eee 0 50%) 0 0/16px 16px}\n"
	".compare{margin-top:.6em}\n"
	".stack{position:relative;width:50%;max-width:900px}\n"
	".stack img.over{position:absolute;left:0;top:0;"
	"clip-path:inset(0 50% 0 0)}\n"
	".stack.flipped img.over{clip-path:none}\n"
	".stack.base img.over{visibility:hidden}\n"
	".controls{display:flex;gap:.6em;align-items:center;margin-top:.3em}\n"
	"input[type=range]{width:16em}\n"
	"body.failures-only section.pass{display:none}\n"
	"section.anim{border-bottom:1px solid #8884;padding:1em 0}\n"
	"section.anim h2{font-size:1.1em;margin:0 0 .3em}\n"
	".changed .badge,.removed .badge{background:var(--fail)}\n"
	".added .badge{background:var(--warn)}\n"
	"ul.meta{margin:.3em 0 .6em;padding-left:1.2em}\n"
	"ul.meta code{font-weight:600}\n"
	".player .views img.same{opacity:.25}\n"
	".player .fno{color:var(--muted);font-variant-numeric:tabular-nums}\n";

/* Slider: clips the current image to the left part; the button cycles
 * slider -> current -> baseline.  Marks <body data-ready> when wired, and
 * counts each section's loaded images in data-loaded. */
static const char SCRIPT[] =
	"(function(){\n"
	"function wire(c){var s=c.querySelector('.stack'),"
	"r=c.querySelector('input[type=range]'),"
	"b=c.querySelector('button.flip'),o=c.querySelector('img.over');\n"
	" r.addEventListener('input',function(){s.classList.remove('flipped','base');"
	"o.style.clipPath='inset(0 '+(100-r.value)+'% 0 0)';});\n"
	" b.addEventListener('click',function(){if(s.classList.contains('flipped'))"
	"{s.classList.replace('flipped','base');b.textContent='showing baseline';}"
	"else if(s.classList.contains('base')){s.classList.remove('base');"
	"b.textContent='slider';}else{s.classList.add('flipped');"
	"b.textContent='showing current';}});}\n"
	"document.querySelectorAll('.compare').forEach(wire);\n"
	"document.querySelectorAll('section.pair img').forEach(function(i){\n"
	" function done(){var p=i.closest('section');"
	"p.dataset.loaded=(+(p.dataset.loaded||0))+1;}\n"
	" if(i.complete&&i.naturalWidth)done();else i.addEventListener('load',done);});\n"
	"var hf=/frame=(\\d+)/.exec(location.hash);\n"
	"document.querySelectorAll('.player').forEach(function(p){\n"
	" var fr=JSON.parse(p.querySelector('script.frames').textContent),n=fr.length,"
	"i=0,playing=!hf,fps=+p.dataset.fps||12,"
	"ib=p.querySelector('img.pb'),id=p.querySelector('img.pd'),"
	"ic=p.querySelector('img.pc'),r=p.querySelector('input.scrub'),"
	"t=p.querySelector('.fno'),b=p.querySelector('button.play');\n"
	" function set(m,u){if(u){if(m.getAttribute('src')!==u)m.src=u;"
	"m.style.visibility='visible';}else m.style.visibility='hidden';}\n"
	" function show(k){i=(k%n+n)%n;var f=fr[i];set(ib,f.b);set(ic,f.c);"
	"if(f.d){set(id,f.d);id.classList.remove('same');}else{set(id,f.c||f.b);"
	"id.classList.add('same');}r.value=i;t.textContent='frame '+i+' / '+n+"
	"' \\u00b7 '+f.s;p.dataset.frame=i;"
	"p.dataset.shown=(+(p.dataset.shown||0))+1;vis();}\n"
	" function vis(){var k=0;[ib,id,ic].forEach(function(m){"
	"var q=m.getBoundingClientRect();if(m.style.visibility!=='hidden'&&"
	"m.complete&&m.naturalWidth>0&&q.width>0&&q.height>0)k++;});"
	"p.dataset.views=k;}\n"
	" [ib,id,ic].forEach(function(m){m.addEventListener('load',function(){"
	"p.dataset.loaded=(+(p.dataset.loaded||0))+1;vis();});});\n"
	" r.addEventListener('input',function(){playing=false;b.textContent='play';"
	"show(+r.value);});\n"
	" b.addEventListener('click',function(){playing=!playing;"
	"b.textContent=playing?'pause':'play';});\n"
	" b.textContent=playing?'pause':'play';\n"
	" show(hf?+hf[1]:0);\n"
	" setInterval(function(){if(playing)show(i+1);},1000/Math.min(Math.max(fps,1),60));\n"
	"});\n"
	"var f=document.getElementById('failures-only');\n"
	"if(f)f.addEventListener('change',function(){"
	"document.body.classList.toggle('failures-only',f.checked);});\n"
	"document.body.dataset.ready='1';\n"
	"})();\n";

static void html_text(FILE *f, const char *s)
{
	bb_markup_escape(s, bb_put_file, f);
}

/* A relative URL for a relative file path: every byte outside the
 * unreserved set (and '/') percent-encoded, so '#', '?', '%' and spaces in
 * file names survive. */
static void html_url(FILE *f, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			fputc(c, f);
		else
			fprintf(f, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

char *diff_html_image(const struct diff_pair *p, const char *kind)
{
	size_t n = strlen(kind) + strlen(p->path) + 8;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "img/%s/%s", kind, p->path);
	return s;
}

static void figure(FILE *f, const struct diff_pair *p, const char *kind)
{
	char *rel = diff_html_image(p, kind);

	if (!rel)
		return;
	fprintf(f, "<figure><figcaption>%s</figcaption><a href=\"", kind);
	html_url(f, rel);
	fprintf(f, "\"><img loading=\"lazy\" decoding=\"async\" alt=\"%s\" "
	        "src=\"", kind);
	html_url(f, rel);
	fprintf(f, "\"></a></figure>\n");
	free(rel);
}

static void slider(FILE *f, const struct diff_pair *p)
{
	char *base = diff_html_image(p, "baseline");
	char *cur = diff_html_image(p, "current");

	if (base && cur) {
		fprintf(f, "<div class=\"compare\"><div class=\"stack\">"
		        "<img loading=\"lazy\" decoding=\"async\" alt=\"baseline\" "
		        "src=\"");
		html_url(f, base);
		fprintf(f, "\"><img class=\"over\" loading=\"lazy\" "
		        "decoding=\"async\" alt=\"current\" src=\"");
		html_url(f, cur);
		fprintf(f, "\"></div>\n<div class=\"controls\">baseline "
		        "<input type=\"range\" min=\"0\" max=\"100\" value=\"50\" "
		        "aria-label=\"baseline / current\"> current "
		        "<button type=\"button\" class=\"flip\">slider</button>"
		        "</div></div>\n");
	}
	free(base);
	free(cur);
}

static void section(FILE *f, const struct diff_pair *p, size_t index)
{
	const char *status = diff_status_name(p->status);

	fprintf(f, "<section class=\"pair %s\" id=\"pair-%zu\" "
	        "data-status=\"%s\" data-path=\"", status, index, status);
	html_text(f, p->path);
	fprintf(f, "\">\n<h2><span class=\"badge\">%s</span><code>", status);
	html_text(f, p->path);
	fprintf(f, "</code></h2>\n<p class=\"numbers\">");
	diff_pair_markup(f, p);
	fprintf(f, "</p>\n");
	if (p->html_images) {
		fprintf(f, "<div class=\"views\">\n");
		if (p->a_path)
			figure(f, p, "baseline");
		if (p->b_path)
			figure(f, p, "current");
		if (p->has_diff)
			figure(f, p, "diff");
		fprintf(f, "</div>\n");
		if (p->a_path && p->b_path)
			slider(f, p);
	}
	fprintf(f, "</section>\n");
}

/* A frame's image in the HTML folder as a JSON string, or null. */
static void frame_url(FILE *f, const struct diff_pair *p, const char *kind,
                      int have)
{
	char *rel = have ? diff_html_image(p, kind) : NULL;

	if (!rel) {
		fprintf(f, "null");
		return;
	}
	fputc('"', f);
	html_url(f, rel);   /* percent-encoded: nothing to escape in JSON */
	fputc('"', f);
	free(rel);
}

/* An animation: its changes, then baseline | difference | current
 * playing in sync, with a scrubber (the page's script drives it from the
 * frame list). */
static void anim_section(FILE *f, const struct diff_run *run, size_t index)
{
	const struct diff_anim *a = &run->anims[index];
	const char *status = diff_anim_status_name(a->status);
	const bb_frames_json *meta = a->b ? a->b : a->a;
	size_t i, k;
	int n = 0;

	fprintf(f, "<section class=\"anim %s\" id=\"anim-%zu\" "
	        "data-status=\"%s\" data-path=\"", status, index, status);
	html_text(f, a->path);
	fprintf(f, "\">\n<h2><span class=\"badge\">%s</span><code>", status);
	html_text(f, a->path);
	fprintf(f, "</code></h2>\n<p class=\"numbers\">");
	diff_anim_markup(f, run, a);
	fprintf(f, "</p>\n");
	if (a->nchanges) {
		fprintf(f, "<ul class=\"meta\">\n");
		for (k = 0; k < a->nchanges; k++) {
			fprintf(f, "<li><code>");
			html_text(f, a->changes[k].field);
			fprintf(f, "</code>: ");
			html_text(f, a->changes[k].baseline);
			fprintf(f, " &rarr; ");
			html_text(f, a->changes[k].current);
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n");
	}
	for (i = 0; i < run->n; i++)
		n += run->pairs[i].anim == (int)index && run->pairs[i].html_images;
	if (n == 0) {
		fprintf(f, "</section>\n");
		return;
	}
	fprintf(f, "<div class=\"player\" data-fps=\"%g\" data-frames=\"%d\">\n"
	        "<div class=\"views\">\n"
	        "<figure><figcaption>baseline</figcaption><img class=\"pb\" "
	        "alt=\"baseline\"></figure>\n"
	        "<figure><figcaption>difference</figcaption><img class=\"pd\" "
	        "alt=\"difference\"></figure>\n"
	        "<figure><figcaption>current</figcaption><img class=\"pc\" "
	        "alt=\"current\"></figure>\n</div>\n"
	        "<div class=\"controls\"><button type=\"button\" class=\"play\">"
	        "pause</button><input type=\"range\" class=\"scrub\" min=\"0\" "
	        "max=\"%d\" value=\"0\" aria-label=\"frame\"><span class=\"fno\">"
	        "</span></div>\n<script type=\"application/json\" "
	        "class=\"frames\">[", meta && meta->fps > 0 ? meta->fps : 12.0, n,
	        n - 1);
	for (i = 0, k = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];

		if (p->anim != (int)index || !p->html_images)
			continue;
		fprintf(f, "%s\n{\"b\": ", k++ ? "," : "");
		frame_url(f, p, "baseline", p->a_path != NULL);
		fprintf(f, ", \"c\": ");
		frame_url(f, p, "current", p->b_path != NULL);
		fprintf(f, ", \"d\": ");
		frame_url(f, p, "diff", p->has_diff);
		fprintf(f, ", \"s\": \"%s\"}", diff_status_name(p->status));
	}
	fprintf(f, "]</script>\n</div>\n</section>\n");
}

static void summary(FILE *f, const struct diff_run *run)
{
	if (run->nanims) {
		fprintf(f, "<p class=\"summary anims\">%zu animations:", run->nanims);
		diff_print_counts(f, run, 1, 0);
		fprintf(f, "</p>\n");
	}
	fprintf(f, "<p class=\"summary\">%zu pairs:", run->n);
	diff_print_counts(f, run, 0, 0);
	fprintf(f, "</p>\n");
}

static void page(FILE *f, const struct diff_run *run,
                 const struct diff_config *cfg)
{
	long failing = run->count[DS_FAIL] + run->count[DS_MISMATCH] +
	               run->count[DS_MISSING] + run->count[DS_ADDED] +
	               run->count[DS_ERROR];
	size_t i, k;
	int s;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	        "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	        "content=\"width=device-width, initial-scale=1\">\n"
	        "<title>bonebake diff: %ld of %zu failing</title>\n"
	        "<style>\n%s</style>\n</head>\n<body data-failing=\"%ld\" "
	        "data-exit-code=\"%d\">\n<header id=\"top-0\">\n<h1>bonebake diff</h1>\n",
	        failing, run->n, CSS, failing, diff_exit_code(run));
	summary(f, run);
	fprintf(f, "<p class=\"options\">");
	{
		char *opts = diff_options_text(cfg);

		if (opts)
			html_text(f, opts);
		free(opts);
	}
	fprintf(f, "</p>\n<p class=\"where\">baseline <code>");
	html_text(f, run->base);
	fprintf(f, "</code>, current <code>");
	html_text(f, run->cur);
	fprintf(f, "</code></p>\n<label><input type=\"checkbox\" "
	        "id=\"failures-only\"> failures only</label>\n</header>\n<main>\n");
	/* animations first: changed, removed, added, errors, by path */
	for (s = 0; s < AS_IDENTICAL; s++)
		for (i = 0; i < run->nanims; i++)
			if ((int)run->anims[i].status == s)
				anim_section(f, run, i);
	if (run->anim_count[AS_IDENTICAL]) {
		fprintf(f, "<details class=\"identical-anims\"><summary>%ld identical "
		        "animations</summary>\n<ul>\n", run->anim_count[AS_IDENTICAL]);
		for (i = 0; i < run->nanims; i++)
			if (run->anims[i].status == AS_IDENTICAL) {
				fprintf(f, "<li id=\"anim-%zu\"><code>", i);
				html_text(f, run->anims[i].path);
				fprintf(f, "</code> (%ld frames)</li>\n", run->anims[i].frames_b);
			}
		fprintf(f, "</ul></details>\n");
	}
	/* files outside any animation: failures first, in status order,
	 * then by path */
	for (s = 0, k = 0; s < DS_IDENTICAL; s++)
		for (i = 0; i < run->n; i++)
			if ((int)run->pairs[i].status == s && run->pairs[i].anim < 0) {
				section(f, &run->pairs[i], i);
				k++;
			}
	for (i = 0, k = 0; i < run->n; i++)
		k += run->pairs[i].status == DS_IDENTICAL && run->pairs[i].anim < 0;
	if (k) {
		fprintf(f, "<details class=\"identical\"><summary>%zu identical "
		        "pairs</summary>\n<ul>\n", k);
		for (i = 0; i < run->n; i++)
			if (run->pairs[i].status == DS_IDENTICAL && run->pairs[i].anim < 0) {
				fprintf(f, "<li><code>");
				html_text(f, run->pairs[i].path);
				fprintf(f, "</code></li>\n");
			}
		fprintf(f, "</ul></details>\n");
	}
	if (run->n == 0)
		fprintf(f, "<p>No PNG files found.</p>\n");
	fprintf(f, "</main>\n<script>\n%s</script>\n</body>\n</html>\n", SCRIPT);
}

int diff_write_html(const struct diff_run *run, const struct diff_config *cfg)
{
	char *index = diff_join(cfg->html_write, "index.html");
	int rc;

	if (!index)
		return -1;
	if (diff_mkdirs_for(index) != 0) {
		fprintf(stderr, "bonebake: %s: cannot create folder: %s\n",
		        cfg->html, strerror(errno));
		free(index);
		return -1;
	}
	rc = diff_save_report(index, run, cfg, page);
	free(index);
	return rc;
}
