/* LD_PRELOAD fault hook for the interruption tests: kills the process
 * (SIGKILL, as a power cut or an OOM kill would) at the Nth rename that
 * moves something into or out of place, before (BB_FAULT_KILL_AT=N) or
 * after (N followed by "a") that call, so a test can stop a run at every
 * step of its final move; or makes the Nth such call fail with EACCES
 * without doing anything (BB_FAULT_FAIL_AT=N), as a folder the user
 * cannot replace would.  Renames within a staging folder (each file
 * written to a temporary name first) are not counted.  And makes the Nth
 * mkdtemp fail with EACCES (BB_FAULT_MKDTEMP_FAIL=N), as a folder where
 * no staging folder can be made would. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int calls;

static int at(int *after)
{
	const char *s = getenv("BB_FAULT_KILL_AT");

	*after = s && strchr(s, 'a') != NULL;
	return s ? atoi(s) : 0;
}

static int staged(const char *p)
{
	return strstr(p, ".bonebake-stage-") != NULL;
}

static int fail_now(void)
{
	const char *s = getenv("BB_FAULT_FAIL_AT");

	return s && calls == atoi(s);
}

static void maybe_die(int when_after)
{
	int after, n = at(&after);

	if (n > 0 && calls == n && after == when_after)
		kill(getpid(), SIGKILL);
}

int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) =
		(int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	int rc, counted = !(staged(from) && staged(to));

	calls += counted;
	if (counted && fail_now()) {
		errno = EACCES;
		return -1;
	}
	if (counted)
		maybe_die(0);
	rc = real(from, to);
	if (counted)
		maybe_die(1);
	return rc;
}

int renameat2(int ofd, const char *from, int nfd, const char *to,
              unsigned int flags)
{
	int (*real)(int, const char *, int, const char *, unsigned int) =
		(int (*)(int, const char *, int, const char *, unsigned int))
		dlsym(RTLD_NEXT, "renameat2");
	int rc, counted = !(staged(from) && staged(to));

	calls += counted;
	if (counted && fail_now()) {
		errno = EACCES;
		return -1;
	}
	if (counted)
		maybe_die(0);
	rc = real(ofd, from, nfd, to, flags);
	if (counted)
		maybe_die(1);
	return rc;
}

char *mkdtemp(char *templ)
{
	char *(*real)(char *) = (char *(*)(char *))dlsym(RTLD_NEXT, "mkdtemp");
	const char *s = getenv("BB_FAULT_MKDTEMP_FAIL");
	static int made;

	if (s && ++made == atoi(s)) {
		errno = EACCES;
		return NULL;
	}
	return real(templ);
}
