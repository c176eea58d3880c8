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
	"body.failures-only section.pass{display:none}\n";

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
	"var f=document.getElementById('failures-only');\n"
	"if(f)f.addEventListener('change',function(){"
	"document.body.classList.toggle('failures-only',f.checked);});\n"
	"document.body.dataset.ready='1';\n"
	"})();\n";

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
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
	{
		char *buf = NULL;
		size_t size = 0;
		FILE *m = open_memstream(&buf, &size);

		if (m) {
			diff_describe_pair(m, p);
			fclose(m);
			html_text(f, buf);
			free(buf);
		}
	}
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

static void summary(FILE *f, const struct diff_run *run)
{
	size_t i;
	int first = 1;

	fprintf(f, "<p class=\"summary\">%zu pairs:", run->n);
	for (i = 0; i < DS_COUNT; i++) {
		if (!run->count[i])
			continue;
		fprintf(f, "%s %ld %s", first ? "" : ",", run->count[i],
		        diff_status_name((enum diff_status)i));
		first = 0;
	}
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
	        "data-exit-code=\"%d\">\n<header>\n<h1>bonebake diff</h1>\n",
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
	/* failures first, in status order, then by path */
	for (s = 0, k = 0; s < DS_IDENTICAL; s++)
		for (i = 0; i < run->n; i++)
			if ((int)run->pairs[i].status == s)
				section(f, &run->pairs[i], k++);
	if (run->count[DS_IDENTICAL]) {
		fprintf(f, "<details class=\"identical\"><summary>%ld identical "
		        "pairs</summary>\n<ul>\n", run->count[DS_IDENTICAL]);
		for (i = 0; i < run->n; i++)
			if (run->pairs[i].status == DS_IDENTICAL) {
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
