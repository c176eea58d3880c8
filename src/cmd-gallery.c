#include "config.h"
#include "cli.h"
int cmd_gallery(int argc, char **argv) { (void)argc; (void)argv; return EXIT_INTERNAL; }
