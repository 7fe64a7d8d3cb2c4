/* fd_memo.c - the devices of open files, kept from one sample to the next (fd_memo.h). */
#include <stdlib.h>
#include <string.h>

#include "fd_memo.h"
#include "grow.h"

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

void fd_memo_free(struct fd_memo *m)
{
	free(m->last);
	free(m->next);
	memset(m, 0, sizeof *m);
}

uint64_t fd_memo_hash(const void *data, size_t n, uint64_t h)
{
	const unsigned char *s = data;
	if (!h)
		h = FNV_OFFSET;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * FNV_PRIME;
	return h;
}

uint64_t fd_memo_mounts(const struct mount *mounts, size_t n)
{
	uint64_t h = 0;
	for (size_t i = 0; i < n; i++) {
		const struct mount *v = &mounts[i];
		unsigned nums[3] = { v->id, v->major, v->minor };
		h = fd_memo_hash(nums, sizeof nums, h);
		h = fd_memo_hash(v->mountpoint, strlen(v->mountpoint) + 1, h);
	}
	return h;
}

static int key_cmp(const struct fd_memo_key *a, const struct fd_memo_key *b)
{
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->fd > b->fd) - (a->fd < b->fd);
}

static int entry_cmp(const void *a, const void *b)
{
	return key_cmp(&((const struct fd_memo_entry *)a)->key,
		       &((const struct fd_memo_entry *)b)->key);
}

void fd_memo_new_sample(struct fd_memo *m, const struct mount *mounts, size_t n)
{
	uint64_t table = fd_memo_mounts(mounts, n);
	if (m->nnext > 1)
		qsort(m->next, m->nnext, sizeof *m->next, entry_cmp);
	struct fd_memo_entry *v = m->last;
	size_t cap = m->caplast;
	m->last = m->next;
	m->caplast = m->capnext;
	m->nlast = table == m->mounts ? m->nnext : 0;
	m->next = v;
	m->capnext = cap;
	m->nnext = 0;
	m->mounts = table;
}

bool fd_memo_find(const struct fd_memo *m, const struct fd_memo_key *key, struct task_file *out)
{
	size_t lo = 0, hi = m->nlast;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(&m->last[mid].key, key);
		if (c == 0) {
			const struct fd_memo_key *k = &m->last[mid].key;
			if (k->starttime != key->starttime || k->dev != key->dev || k->ino != key->ino)
				return false;
			*out = m->last[mid].file;
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

void fd_memo_keep(struct fd_memo *m, const struct fd_memo_key *key, const struct task_file *file)
{
	if (grow_array(&m->next, &m->capnext, m->nnext + 1, sizeof *m->next, 64, NULL) < 0)
		return;
	m->next[m->nnext++] = (struct fd_memo_entry){ *key, *file };
}
