src_bonebake_SOURCES += \
	src/main.c \
	src/cli.c \
	src/cli.h \
	src/cmd-info.c \
	src/cmd-render.c \
	src/cmd-pose.c \
	src/figure.c \
	src/figure.h
src_bonebake_SOURCES += src/outdir.c src/outdir.h src/cmd-sheet.c src/cmd-batch.c
# previews (issue 13): animated files, contact sheets, the gallery page
src_bonebake_SOURCES += src/cmd-preview.c src/cmd-gallery.c \
	src/preview-out.c src/preview-out.h src/gallery-page.c src/gallery-page.h
# diff, pack (and the pack options sheet shares)
src_bonebake_SOURCES += \
	src/cmd-diff.c \
	src/diff-run.c \
	src/diff-anim.c \
	src/diff-markdown.c \
	src/diff-run.h \
	src/diff-report.c \
	src/diff-html.c \
	src/cmd-pack.c \
	src/pack-options.c \
	src/pack-options.h
