# Batch manifests, shards, up-to-date records (bonebake batch)
lib_libbonebake_core_la_SOURCES += lib/batch/batch.c
bonebakeinclude_HEADERS += lib/include/bonebake/batch.h
