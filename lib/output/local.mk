# lib/output — reading what the CLI writes beside renders (frames.json)
lib_libbonebake_core_la_SOURCES += lib/output/frames-json.c
bonebakeinclude_HEADERS += lib/include/bonebake/output.h
