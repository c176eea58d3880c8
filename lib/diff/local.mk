# lib/diff — owned by the diff work (issue 5)
bonebakeinclude_HEADERS += lib/include/bonebake/diff.h
