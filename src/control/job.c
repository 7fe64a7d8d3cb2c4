/* job.c - control_apply on a worker thread, finished when its pipe becomes readable.
 *
 * The thread touches nothing but its own copy of the plan and its own result, so
 * the main loop needs no locks: it polls control_job_fd with its other descriptors.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"

struct control_job {
	pthread_t thread;
	int pipe[2];
	struct control_plan plan;
	struct control_result *result;
};

static void *job_main(void *arg)
{
	struct control_job *job = arg;
	control_apply(&job->plan, job->result);
	char done = 1;
	while (write(job->pipe[1], &done, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

struct control_job *control_job_start(const struct control_plan *p, struct error *err)
{
	struct control_job *job = calloc(1, sizeof *job);
	if (job)
		job->result = calloc(1, sizeof *job->result);
	if (!job || !job->result) {
		if (job)
			free(job);
		error_set(err, "out of memory");
		return NULL;
	}
	job->plan = *p;
	if (pipe2(job->pipe, O_CLOEXEC) < 0) {
		error_errno(err, "pipe", errno);
		goto fail;
	}
	int e = pthread_create(&job->thread, NULL, job_main, job);
	if (e == 0)
		return job;
	error_errno(err, "pthread_create", e);
	close(job->pipe[0]);
	close(job->pipe[1]);
fail:
	control_result_free(job->result);
	free(job);
	return NULL;
}

int control_job_fd(const struct control_job *job)
{
	return job->pipe[0];
}

const struct control_plan *control_job_plan(const struct control_job *job)
{
	return &job->plan;
}

struct control_result *control_job_finish(struct control_job *job)
{
	pthread_join(job->thread, NULL);
	close(job->pipe[0]);
	close(job->pipe[1]);
	struct control_result *r = job->result;
	free(job);
	return r;
}
