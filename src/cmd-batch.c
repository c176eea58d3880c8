/* bonebake batch MANIFEST.json: run many render/sheet jobs, a shard of
 * them, skipping those whose outputs are current.  Each job runs in a
 * worker process forked from batch, one per slot, which runs its jobs one
 * after another (isolated from batch: a crashing job takes down its
 * worker only, and batch starts another), with its share of the threads;
 * its progress comes back as --progress json events and its messages are
 * printed under its name when it ends. */
#define _GNU_SOURCE   /* ppoll */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "outdir.h"

static const char help[] =
	"usage: bonebake batch MANIFEST.json [options]\n"
	"\n"
	"Runs the jobs a manifest lists (JSON: {\"jobs\": [{\"name\", \"command\",\n"
	"\"input\", \"output\", \"animations\", \"options\"}]}; paths relative to\n"
	"the manifest; see docs/cli.md), each as `bonebake COMMAND INPUT -o OUTPUT\n"
	"[options]`.  A job whose outputs are current is skipped: the record\n"
	"OUTPUT/.bonebake-batch.json holds a SHA-256 key over the bonebake\n"
	"version, the command, its options and every file it read.  Jobs run in\n"
	"parallel; the outputs are the same whatever --jobs.  A failing job is\n"
	"reported with its name and messages, the other jobs still run, and the\n"
	"batch exits with the code of the first failed job in manifest order.\n"
	"\n"
	"  --shard K/N          run only shard K (0 <= K < N): the jobs whose\n"
	"                       name hashes to K (FNV-1a, mixed, mod N): the N shards\n"
	"                       partition the jobs and adding a job moves no other\n"
	"  --jobs N             threads in all (default: CPUs), shared between\n"
	"                       jobs running at once and threads within each\n"
	"  --force              run every job, current or not\n"
	"  --list               print each job of the shard (name, shard,\n"
	"                       current/stale) and run nothing\n"
	"  --json               print the outcome as JSON on stdout (each job's\n"
	"                       warnings included)\n"
	"  --strict             run each job with --strict: a job with any\n"
	"                       warning fails (exit 3) and writes nothing\n"
	"  --quiet              print nothing on success\n"
	"  --progress auto|line|json|none\n"
	"                       jobs done / total on stderr (see render)\n"
	"  -h, --help           this text\n";

/* SIGINT / SIGTERM received (0: none): batch forwards it to the running
 * jobs, waits for them and starts no other. */
static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* The commands a job may run: they take FILE -o DIR and --deps. */
static const char *const job_commands[] = { "render", "sheet", NULL };

enum { O_SHARD = 1000, O_FORCE, O_LIST, O_JSON, O_PROGRESS, O_STRICT };
enum { MSG_MAX = 65536 };

/* A slot: its worker process and the job it runs. */
struct child {
	int job;                 /* the job running, -1: none */
	pid_t pid;               /* the worker, 0: none */
	int fd;                  /* its stderr, or -1 when closed */
	int to, end;             /* jobs to it, their ends from it (-1: none) */
	char line[4096];
	size_t nline;
	char deps[4200];
};

struct outcome {
	int status;              /* 0 pending, 1 ran, 2 current, 3 failed */
	int rc;
	char *msg;               /* its messages (not progress) */
	size_t nmsg;
};

struct batch_run {
	const bb_batch *b;
	int *sel;                /* selected job indices */
	int nsel;
	int threads_each;
	int strict;              /* --strict passed on to every job */
	struct outcome *out;     /* per job */
	cli_progress progress;
};

static int parse_shard(const char *s, int *k, int *n)
{
	char *end;
	long a, b;

	errno = 0;
	a = strtol(s, &end, 10);
	if (end == s || *end != '/')
		return 0;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || errno || b < 1 || b > 100000 || a < 0 || a >= b)
		return 0;
	*k = (int)a;
	*n = (int)b;
	return 1;
}

static int known_command(const char *c)
{
	int i;

	for (i = 0; job_commands[i]; i++)
		if (strcmp(job_commands[i], c) == 0)
			return 1;
	return 0;
}

static void keep_message(struct outcome *o, const char *line, size_t n)
{
	char *m;

	if (o->nmsg + n + 2 > MSG_MAX)
		return;
	if (!(m = realloc(o->msg, o->nmsg + n + 2)))
		return;
	o->msg = m;
	memcpy(o->msg + o->nmsg, line, n);
	o->nmsg += n;
	o->msg[o->nmsg++] = '\n';
	o->msg[o->nmsg] = '\0';
}

/* One line of a worker's stderr: its job's progress events are dropped
 * (the batch shows jobs), everything else is kept for its report. */
static void child_line(struct batch_run *r, struct child *c)
{
	const char *l = c->line;

	c->line[c->nline] = '\0';
	/* a worker between jobs says nothing; were it to, nobody's message */
	if (c->job >= 0 && strncmp(l, "{\"progress\": ", 13) != 0)
		keep_message(&r->out[c->job], l, c->nline);
	c->nline = 0;
}

/* Closes every descriptor from `low` up. */
static void close_from(int low)
{
	long max, fd;

#ifdef HAVE_CLOSE_RANGE
	if (close_range((unsigned)low, ~0U, 0) == 0)
		return;
#endif
	max = sysconf(_SC_OPEN_MAX);
	for (fd = low; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		close((int)fd);
}

/* What batch sends a worker: the job to run and where its --deps go. */
struct job_msg {
	int job;
	char deps[4200];
};

/* What a worker sends back when a job ends: the job and its exit code. */
struct job_end {
	int job, rc;
};

/* Writes (`out`) or reads all of n bytes (a pipe may move fewer at
 * once); 0 on end of file or an error. */
static int move_all(int fd, void *p, size_t n, int out)
{
	char *c = p;

	while (n > 0) {
		ssize_t k = out ? write(fd, c, n) : read(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		c += k;
		n -= (size_t)k;
	}
	return 1;
}

/* Job j's command line, as `bonebake <argv...>` (allocated; the strings
 * are the manifest's); NULL when out of memory. */
static const char **job_argv(const struct batch_run *r, int job,
                             const char *deps, char *threads, size_t nthreads,
                             int *argc)
{
	const bb_batch_job *j = bb_batch_job_at(r->b, job);
	const char **argv = calloc((size_t)j->nargs + 16, sizeof *argv);
	int i, k = 0;

	if (!argv)
		return NULL;
	snprintf(threads, nthreads, "%d", r->threads_each);
	argv[k++] = "bonebake";
	argv[k++] = j->command;
	argv[k++] = j->input;
	argv[k++] = "-o";
	argv[k++] = j->output;
	for (i = 0; i < j->nargs; i++)
		argv[k++] = j->args[i];
	argv[k++] = "--jobs";
	argv[k++] = threads;
	argv[k++] = "--progress";
	argv[k++] = "json";
	argv[k++] = "--deps";
	argv[k++] = deps;
	if (r->strict)
		argv[k++] = "--strict";
	argv[k] = NULL;
	*argc = k;
	return argv;
}

/* A worker: a process forked from batch that runs jobs one after another,
 * each as `bonebake <argv...>` would, with every library loaded and the
 * code and memory of the jobs before it warm (no exec, no dynamic linking,
 * no fork and no exit per job).  In a process group of its own (batch
 * forwards a cancel to it, so a job's own children go too), stdin and
 * stdout on /dev/null, stderr into the `err_fd` pipe, the stop signals at
 * their defaults and unblocked as a command run by hand has them.  It
 * reads a job_msg from `to_fd`, runs the job and writes a job_end to
 * `end_fd`, until batch closes `to_fd`; a crash ends only this process,
 * and batch fails its job and starts another worker for the next.  An
 * interrupted job ends the worker.  Never returns. */
static void run_worker(const struct batch_run *r, int to_fd, int end_fd,
                       int err_fd)
{
	sigset_t none;
	struct job_msg m;
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	/* out of the way of 0..4 first (batch may have been started with
	 * some of 0..2 closed, so a pipe can be one of them) */
	err_fd = fcntl(err_fd, F_DUPFD, 10);
	to_fd = fcntl(to_fd, F_DUPFD, 10);
	end_fd = fcntl(end_fd, F_DUPFD, 10);
	null = null < 0 ? -1 : fcntl(null, F_DUPFD, 10);
	if (null < 0 || err_fd < 0 || to_fd < 0 || end_fd < 0 ||
	    dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err_fd, 2) < 0 ||
	    dup2(to_fd, 3) < 0 || dup2(end_fd, 4) < 0)
		_exit(EXIT_INTERNAL);
	close_from(5);
	cli_stop_signals(SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	while (move_all(3, &m, sizeof m, 0)) {
		char threads[16];
		struct job_end e = { m.job, EXIT_INTERNAL };
		const char **argv;
		int argc;

		m.deps[sizeof m.deps - 1] = '\0';
		if (m.job < 0 || m.job >= bb_batch_job_count(r->b))
			_exit(EXIT_INTERNAL);
		argv = job_argv(r, m.job, m.deps, threads, sizeof threads, &argc);
		/* getopt reorders the array, never the strings */
		if (argv)
			e.rc = cli_command_again(argc, (char **)argv);
		free(argv);
		if (!move_all(4, &e, sizeof e, 1) || cli_interrupted)
			_exit(e.rc);
	}
	_exit(EXIT_OK);
}

/* Starts slot c's worker; 0, or an exit code (said). */
static int start_worker(const struct batch_run *r, struct child *c)
{
	/* its stderr, jobs to it, their ends from it: [0] read, [1] write */
	int err[2] = { -1, -1 }, to[2] = { -1, -1 }, end[2] = { -1, -1 };
	int *fds[] = { err, to, end }, e, i;

	if (pipe(err) != 0 || pipe(to) != 0 || pipe(end) != 0)
		goto fail;
	fflush(NULL);   /* nothing of batch's own output twice */
	c->pid = fork();
	if (c->pid == 0)
		run_worker(r, to[0], end[1], err[1]);
	if (c->pid < 0) {
		c->pid = 0;
		goto fail;
	}
	close(err[1]);
	close(to[0]);
	close(end[1]);
	setpgid(c->pid, c->pid);   /* before any cancel can be forwarded */
	/* its messages are drained without waiting once a job_end says the
	 * job is over (written after them) */
	(void)fcntl(err[0], F_SETFL, fcntl(err[0], F_GETFL) | O_NONBLOCK);
	c->fd = err[0];
	c->to = to[1];
	c->end = end[0];
	return 0;
fail:
	e = errno;
	for (i = 0; i < 6; i++)
		if (fds[i / 2][i % 2] >= 0)
			close(fds[i / 2][i % 2]);
	fprintf(stderr, "bonebake batch: cannot start a job process: %s\n",
	        strerror(e));
	return EXIT_INTERNAL;
}

static void end_worker(struct batch_run *r, struct child *c);

/* Hands job `job` to slot c's worker (started first when it has none);
 * 0, or an exit code (said, naming the job). */
static int start_job(struct batch_run *r, int job, struct child *c)
{
	const bb_batch_job *j = bb_batch_job_at(r->b, job);
	const char *tmp = getenv("TMPDIR");
	struct job_msg m;
	sigset_t pipe_sig, old;
	const struct timespec zero = { 0, 0 };
	int dfd, rc;

	memset(&m, 0, sizeof m);
	m.job = job;
	snprintf(m.deps, sizeof m.deps, "%s/bonebake-deps-XXXXXX",
	         tmp && tmp[0] && strlen(tmp) < 4096 ? tmp : "/tmp");
	if ((dfd = mkstemp(m.deps)) < 0) {
		fprintf(stderr, "bonebake batch: %s: cannot start: %s: %s\n",
		        cli_text(j->name), m.deps, strerror(errno));
		return EXIT_IO;
	}
	close(dfd);
	if (c->pid > 0 && waitpid(c->pid, NULL, WNOHANG) == c->pid)
		end_worker(r, c);   /* gone while idle (killed from outside) */
	if (!c->pid && (rc = start_worker(r, c)) != 0) {
		unlink(m.deps);
		return rc;
	}
	memcpy(c->deps, m.deps, sizeof c->deps);
	c->job = job;
	c->nline = 0;
	/* a worker gone since its last job: the loop sees its end and fails
	 * this job with its exit status; no SIGPIPE for batch meanwhile */
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_sig, &old);
	if (!move_all(c->to, &m, sizeof m, 1) && errno == EPIPE)
		(void)sigtimedwait(&pipe_sig, NULL, &zero);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/* Reads what slot c's worker wrote on stderr: lines kept for its job. */
static void child_drain(struct batch_run *r, struct child *c)
{
	while (c->fd >= 0) {
		char buf[4096];
		ssize_t n = read(c->fd, buf, sizeof buf), i;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			if (c->nline)
				child_line(r, c);
			close(c->fd);
			c->fd = -1;
			return;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				child_line(r, c);
			} else if (c->nline + 1 < sizeof c->line) {
				c->line[c->nline++] = buf[i];
			}
		}
	}
}

/* Slot c's job ended with exit code rc (`sig`: the signal that ended its
 * worker, or 0): its outcome, then the record of what it read. */
static void finish_job(struct batch_run *r, struct child *c, int rc, int sig)
{
	const bb_batch_job *j = bb_batch_job_at(r->b, c->job);
	struct outcome *o = &r->out[c->job];
	bb_error err;

	if (c->nline)
		child_line(r, c);
	o->rc = rc;
	if (sig) {
		char m[128];

		snprintf(m, sizeof m, "bonebake: killed by signal %d", sig);
		keep_message(o, m, strlen(m));
	}
	if (o->rc == 0 && bb_batch_stamp(j, PACKAGE_VERSION, c->deps, &err) != BB_OK) {
		char m[1200];

		bb_error_format(&err, m, sizeof m);
		keep_message(o, m, strlen(m));
		o->rc = cli_exit_code(err.status);
	}
	o->status = o->rc == 0 ? 1 : 3;
	unlink(c->deps);
	c->job = -1;
	cli_progress_step(&r->progress, 1);
}

/* Slot c's worker is gone (or told to go): reaped, its pipes closed; a
 * job it was running fails with its exit status. */
static void end_worker(struct batch_run *r, struct child *c)
{
	int st = 0;

	if (c->to >= 0)
		close(c->to);
	c->to = -1;
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	child_drain(r, c);
	if (c->job >= 0)
		finish_job(r, c, WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_INTERNAL,
		           WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	if (c->fd >= 0)
		close(c->fd);
	if (c->end >= 0)
		close(c->end);
	c->fd = c->end = -1;
	c->pid = 0;
}

/* A job_end or the end of the pipe from slot c's worker. */
static void worker_read(struct batch_run *r, struct child *c)
{
	struct job_end e;

	if (move_all(c->end, &e, sizeof e, 0) && e.job == c->job) {
		child_drain(r, c);   /* its messages came before its end */
		finish_job(r, c, e.rc, 0);
		return;
	}
	kill(c->pid, SIGKILL);   /* died, or said something else: it goes */
	end_worker(r, c);
}

/* Runs the stale selected jobs, `slots` at a time.  The stop signals are
 * blocked but while waiting (ppoll), so one cannot slip in between the
 * check and the wait; once one came, it is forwarded to every running
 * job's process group, no job is started, and the loop waits for the
 * running ones to end (they remove their staging folders). */
static int run_jobs(struct batch_run *r, const int *todo, int ntodo, int slots)
{
	struct child *kids = calloc((size_t)slots, sizeof *kids);
	struct pollfd *pfd = calloc(2 * (size_t)slots, sizeof *pfd);
	int next = 0, running = 0, i, rc = 0, forwarded = 0;
	sigset_t stops, wait_mask;

	if (!kids || !pfd) {
		free(kids);
		free(pfd);
		return EXIT_INTERNAL;
	}
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigprocmask(SIG_BLOCK, &stops, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	for (i = 0; i < slots; i++) {
		kids[i].job = -1;
		kids[i].fd = kids[i].to = kids[i].end = -1;
	}
	while ((next < ntodo && !stop_sig) || running > 0) {
		if (stop_sig && forwarded != stop_sig) {
			for (i = 0; i < slots; i++)
				if (kids[i].pid > 0)
					kill(-kids[i].pid, stop_sig);
			forwarded = stop_sig;
		}
		for (i = 0; i < slots && next < ntodo && !stop_sig; i++) {
			if (kids[i].job >= 0)
				continue;
			if ((rc = start_job(r, todo[next], &kids[i])) != 0) {
				r->out[todo[next]].status = 3;
				r->out[todo[next]].rc = rc;
			} else {
				running++;
			}
			next++;
		}
		for (i = 0; i < slots; i++) {
			int busy = kids[i].job >= 0;

			pfd[2 * i].fd = busy ? kids[i].fd : -1;
			pfd[2 * i + 1].fd = busy ? kids[i].end : -1;
			pfd[2 * i].events = pfd[2 * i + 1].events = POLLIN;
			pfd[2 * i].revents = pfd[2 * i + 1].revents = 0;
		}
		if (running && ppoll(pfd, 2 * (nfds_t)slots, NULL, &wait_mask) < 0 &&
		    errno != EINTR)
			break;
		for (i = 0; i < slots; i++) {
			if (kids[i].job < 0)
				continue;
			if (pfd[2 * i].revents)
				child_drain(r, &kids[i]);
			if (pfd[2 * i + 1].revents & (POLLIN | POLLHUP | POLLERR)) {
				worker_read(r, &kids[i]);
				if (kids[i].job < 0)
					running--;
			}
		}
	}
	for (i = 0; i < slots; i++)   /* told to go (or gone): reaped */
		if (kids[i].pid > 0)
			end_worker(r, &kids[i]);
	sigprocmask(SIG_UNBLOCK, &stops, NULL);
	free(kids);
	free(pfd);
	return 0;
}

static const char *status_name(int s)
{
	return s == 1 ? "ran" : s == 2 ? "current" : s == 3 ? "failed" : "pending";
}

static const char WARNING_MARK[] = "warning: ";

/* Calls fn on each of the job's warning lines (the text after
 * "warning: "); returns how many there are. */
static int each_warning(const struct outcome *o,
                        void (*fn)(const char *line, int len, int index))
{
	const char *l, *nl, *w;
	int n = 0;

	for (l = o->msg; l && *l; l = nl + 1) {
		if (!(nl = strchr(l, '\n')))
			break;
		w = strstr(l, WARNING_MARK);
		if (w && w < nl) {
			w += sizeof WARNING_MARK - 1;
			if (fn)
				fn(w, (int)(nl - w), n);
			n++;
		}
	}
	return n;
}

static void json_warning(const char *line, int len, int index)
{
	char *s = strndup(line, (size_t)len);

	printf("%s", index ? ", " : "");
	cli_json_string(stdout, s ? s : "");
	free(s);
}

static void text_warning(const char *line, int len, int index)
{
	char text[4096];

	(void)index;
	snprintf(text, sizeof text, "%.*s", len, line);
	printf("  warning: %s\n", cli_text(text));
}

static void report(const struct batch_run *r, int json, int quiet, int k, int n)
{
	int i, counts[4] = { 0 }, warned = 0;

	for (i = 0; i < r->nsel; i++)
		counts[r->out[r->sel[i]].status]++;
	if (json) {
		printf("{\"shard\": \"%d/%d\", \"ran\": %d, \"current\": %d, "
		       "\"failed\": %d, \"jobs\": [", k, n, counts[1], counts[2],
		       counts[3]);
		for (i = 0; i < r->nsel; i++) {
			const bb_batch_job *j = bb_batch_job_at(r->b, r->sel[i]);
			const struct outcome *o = &r->out[r->sel[i]];

			printf("%s\n  {\"name\": ", i ? "," : "");
			cli_json_string(stdout, j->name);
			printf(", \"command\": ");
			cli_json_string(stdout, j->command);
			printf(", \"output\": ");
			cli_json_string(stdout, j->output);
			printf(", \"status\": \"%s\", \"exit\": %d, \"warnings\": [",
			       status_name(o->status), o->rc);
			each_warning(o, json_warning);
			printf("]}");
		}
		printf("%s]}\n", r->nsel ? "\n" : "");
		return;
	}
	if (quiet)
		return;
	for (i = 0; i < r->nsel; i++) {
		const struct outcome *o = &r->out[r->sel[i]];
		int nw = o->status == 1 ? each_warning(o, NULL) : 0;

		if (o->status == 3)
			printf("%s: failed (exit %d)\n",
			       cli_text(bb_batch_job_at(r->b, r->sel[i])->name), o->rc);
		else
			printf("%s: %s", cli_text(bb_batch_job_at(r->b, r->sel[i])->name),
			       o->status == 1 ? "rendered" : "current (skipped)");
		if (nw)
			printf(" with %d warning%s", nw, nw == 1 ? "" : "s");
		if (o->status != 3)
			putchar('\n');
		if (nw)
			each_warning(o, text_warning);
		warned += nw > 0;
	}
	printf("batch: %d ran, %d current, %d failed", counts[1], counts[2],
	       counts[3]);
	if (warned)
		printf(", %d with warnings", warned);
	printf(" (shard %d/%d of %d jobs)\n", k, n, bb_batch_job_count(r->b));
}

/* Every failed job's messages under its name, in manifest order; the exit
 * code of the first. */
static int failures(const struct batch_run *r)
{
	int i, rc = 0;

	for (i = 0; i < r->nsel; i++) {
		const struct outcome *o = &r->out[r->sel[i]];
		const char *name = bb_batch_job_at(r->b, r->sel[i])->name, *l, *nl;

		if (o->status != 3)
			continue;
		fprintf(stderr, "bonebake batch: job \"%s\" failed (exit %d)\n",
		        cli_text(name), o->rc);
		for (l = o->msg; l && *l; l = nl + 1) {
			nl = strchr(l, '\n');
			if (!nl)
				break;
			char line[4096];

			snprintf(line, sizeof line, "%.*s", (int)(nl - l), l);
			fprintf(stderr, "bonebake batch: %s: %s\n", cli_text(name),
			        cli_text(line));
		}
		if (!rc)
			rc = o->rc ? o->rc : EXIT_INTERNAL;
	}
	return rc;
}

static int threads_total(int jobs)
{
	return jobs > 0 ? jobs : bb_cpu_count();
}

int cmd_batch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "shard", required_argument, NULL, O_SHARD },
		{ "jobs", required_argument, NULL, 'j' },
		{ "force", no_argument, NULL, O_FORCE },
		{ "list", no_argument, NULL, O_LIST },
		{ "json", no_argument, NULL, O_JSON },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", required_argument, NULL, O_PROGRESS },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct batch_run r;
	bb_batch *b = NULL;
	bb_error err;
	int c, k = 0, n = 1, jobs = 0, force = 0, list = 0, json = 0, quiet = 0;
	int progress = CLI_PROGRESS_AUTO, i, rc = 0, *todo = NULL, ntodo = 0, slots;

	memset(&r, 0, sizeof r);
	cli_stop_signals(on_stop);
	while ((c = getopt_long(argc, argv, "j:qh", opts, NULL)) != -1) {
		switch (c) {
		case O_SHARD:
			if (!parse_shard(optarg, &k, &n))
				return cli_usage_error("batch", "--shard takes K/N with "
				                       "0 <= K < N, not '%s'", optarg);
			break;
		case 'j':
			if (!cli_parse_int(optarg, 1, 256, &jobs))
				return cli_usage_error("batch", "--jobs takes an integer "
				                       "1..256, not '%s'", optarg);
			break;
		case O_FORCE: force = 1; break;
		case O_LIST: list = 1; break;
		case O_JSON: json = 1; break;
		case O_STRICT: r.strict = 1; break;
		case 'q': quiet = 1; break;
		case O_PROGRESS:
			if (!cli_parse_progress(optarg, &progress))
				return cli_usage_error("batch", "--progress takes auto, line, "
				                       "json or none, not '%s'", optarg);
			break;
		case 'h':
			fputs(help, stdout);
			return EXIT_OK;
		default:
			return cli_bad_option("batch", argv, opts);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("batch", "expected one MANIFEST.json");
	if (bb_batch_load(argv[optind], &b, &err) != BB_OK)
		return cli_fail(&err);
	r.b = b;
	r.out = calloc((size_t)bb_batch_job_count(b) + 1, sizeof *r.out);
	r.sel = calloc((size_t)bb_batch_job_count(b) + 1, sizeof *r.sel);
	todo = calloc((size_t)bb_batch_job_count(b) + 1, sizeof *todo);
	if (!r.out || !r.sel || !todo) {
		rc = EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < bb_batch_job_count(b); i++) {
		const bb_batch_job *j = bb_batch_job_at(b, i);

		if (!known_command(j->command)) {
			cli_error("%s: jobs[%d].command: \"%s\" is not a command a job "
			          "can run (render, sheet)", argv[optind], i, j->command);
			rc = EXIT_INPUT;
			goto out;
		}
		if (bb_batch_shard(j, n) == k)
			r.sel[r.nsel++] = i;
	}
	for (i = 0; i < r.nsel && !stop_sig; i++) {
		const bb_batch_job *j = bb_batch_job_at(b, r.sel[i]);
		int current = !force && bb_batch_current(j, PACKAGE_VERSION);

		if (list)
			printf("%s\t%d\t%s\n", cli_text(j->name), bb_batch_shard(j, n),
			       current ? "current" : "stale");
		else if (current)
			r.out[r.sel[i]].status = 2;
		else
			todo[ntodo++] = r.sel[i];
	}
	if (list || stop_sig)
		goto out;
	slots = threads_total(jobs);
	if (slots > ntodo)
		slots = ntodo > 0 ? ntodo : 1;
	r.threads_each = threads_total(jobs) / slots;
	if (r.threads_each < 1)
		r.threads_each = 1;
	cli_progress_start(&r.progress, "batch", ntodo, quiet ? CLI_PROGRESS_QUIET
	                                                       : progress);
	cli_progress_unit(&r.progress, "jobs");
	if (ntodo)
		rc = run_jobs(&r, todo, ntodo, slots);
	cli_progress_end(&r.progress);
	if (stop_sig) {
		fprintf(stderr, "bonebake batch: interrupted: the running jobs were "
		        "stopped, the others not started\n");
		rc = 128 + stop_sig;
		goto out;
	}
	if (!rc)
		rc = failures(&r);
	report(&r, json, quiet && !rc, k, n);
out:
	if (stop_sig && rc < 128)
		rc = 128 + stop_sig;
	for (i = 0; r.out && i < bb_batch_job_count(b); i++)
		free(r.out[i].msg);
	free(r.out);
	free(r.sel);
	free(todo);
	bb_batch_free(b);
	return rc;
}
