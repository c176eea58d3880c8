# lib/image — pixel buffers, PNG, animated previews
lib_libbonebake_core_la_SOURCES += \
	lib/image/image.c \
	lib/image/convert.c \
	lib/image/png.c \
	lib/image/anim.c \
	lib/image/anim-int.h \
	lib/image/anim-webp.c \
	lib/image/anim-gif.c \
	lib/image/anim-apng.c \
	lib/image/png-read.c \
	lib/image/png-write.c \
	lib/image/png-fast.c \
	lib/image/png-fast-x86.c \
	lib/image/png-fast.h \
	lib/image/png-int.h
# videos through FFmpeg's libraries, or their refusal (--without-video)
if VIDEO
lib_libbonebake_core_la_SOURCES += lib/image/anim-video.c
else
lib_libbonebake_core_la_SOURCES += lib/image/anim-novideo.c
endif
bonebakeinclude_HEADERS += lib/include/bonebake/image.h \
	lib/include/bonebake/anim.h
