/* bonebake — batch manifests: many render/sheet jobs in one file, split
 * into deterministic shards for distributed runners, each skipped when its
 * outputs are current.
 *
 * A manifest (JSON):
 *   { "jobs": [ { "name": "hero-walk",          optional, unique; default:
 *                                                 the output path
 *                 "command": "render",          a bonebake command
 *                 "input": "art/hero.json",     relative to the manifest
 *                 "output": "out/hero",         relative to the manifest
 *                 "animations": ["walk"],       optional: --anim each
 *                 "options": { "scale": 2, "all": true, "set": ["a=b"] } },
 *               ... ] }
 * `options` are the command's long options: a number or a string is the
 * option's value, true the bare flag (false leaves it out), an array
 * repeats it; each becomes one word, --option=value.  Options the batch
 * itself controls (output, jobs, quiet, progress, deps, help), and any
 * abbreviation getopt would take for one of them, are refused
 * (BB_ERR_USAGE), as are two jobs with one name (BB_ERR_INPUT) or one
 * output folder, however spelt (BB_ERR_USAGE); more than 256 animations
 * (what render and sheet take by name) or 16384 words in a job is
 * BB_ERR_LIMIT. */
#ifndef BONEBAKE_BATCH_H
#define BONEBAKE_BATCH_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_batch bb_batch;

typedef struct bb_batch_job {
	const char *name;
	const char *command;
	const char *input;         /* resolved against the manifest's folder */
	const char *output;        /* likewise */
	int nargs;
	const char *const *args;   /* options as command-line words, in order */
	const char *base;          /* the manifest's folder, resolved: the key
	                              names paths below it relative to it, so
	                              a tree and its records can move */
} bb_batch_job;

/* Reads a manifest (new; free with bb_batch_free).  Fails with BB_ERR_IO
 * (unreadable), BB_ERR_INPUT (err names the field: jobs[2].options.scale),
 * BB_ERR_USAGE, BB_ERR_LIMIT (as above), BB_ERR_NOMEM.  Thread-safe. */
bb_status bb_batch_load(const char *path, bb_batch **out, bb_error *err);
/* The same from a manifest's text in memory; `path` names it in messages
 * and its folder is what input and output are relative to. */
bb_status bb_batch_parse(const char *data, size_t size, const char *path,
                         bb_batch **out, bb_error *err);
void bb_batch_free(bb_batch *b);
int bb_batch_job_count(const bb_batch *b);
/* Borrowed from b. */
const bb_batch_job *bb_batch_job_at(const bb_batch *b, int i);

/* The shard in 0..nshards-1 a job belongs to: FNV-1a (64 bits) of its
 * name, mixed by MurmurHash3's 64-bit finalizer, modulo nshards; so adding
 * or removing a job moves no other job. */
int bb_batch_shard(const bb_batch_job *j, int nshards);

/* Up-to-date records.  After a job succeeds, bb_batch_stamp writes
 * OUTPUT/.bonebake-batch.json: a key (SHA-256 over the bonebake version,
 * the command, the input and output, the options and every file the
 * command read with its SHA-256) and that list.  bb_batch_current
 * recomputes the key from the record's file list: 1 when it matches (the
 * job's outputs are current), 0 when anything changed or there is no
 * record.  `deps` lists the files read (the JSON that `--deps FILE`
 * writes: {"files": [...]}).  Stamp fails with BB_ERR_IO / BB_ERR_INPUT
 * (deps unreadable), and writes atomically. */
int bb_batch_current(const bb_batch_job *j, const char *version);
bb_status bb_batch_stamp(const bb_batch_job *j, const char *version,
                         const char *deps, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
