/* graphs.f - the scrolling graphs pane: one strip per series (read, write...) of
 * each followed device, newest sample at the right, Y autoscaled with units, X
 * labelled in seconds, every event drawn as a labelled vertical mark. */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <ncurses.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heatmap.h"
#include "pane.h"
#include "text.h"

#define GUTTER 7          /* Y labels and the axis line */
#define STRIP_MIN 3       /* a label row and two plot rows */
#define XLABEL_GAP 10     /* cells between X labels at least */
#define LABEL_COLS_MAX 1024  /* widest plot drawn */

struct strip {
	const char *device;                 /* NULL for system series */
	const struct graph_series_def *series;
	enum theme_role role;
	struct rect plot;
	int label_y;
	enum graph_fill fill;               /* of its series and its limit lines, in view */
};

/* The geometry every strip of this frame shares.  A dot column (a braille cell has two)
 * shows `zoom` samples, their mean, from a multiple of zoom on: a new sample does not
 * shift the others between columns. */
struct span {
	const struct graph_metric *metric;
	uint64_t end;          /* one past the newest sample shown */
	int64_t first;         /* sample at the left edge (may be before the history) */
	int spc;               /* dot columns per cell */
	int plot_x, plot_w;
	int zoom;              /* samples per dot column */
};

/* Samples per cell. */
static int64_t span_per_cell(const struct span *sp)
{
	return (int64_t)sp->spc * sp->zoom;
}

static int grow_buffers(struct frame *f, size_t values, size_t cells)
{
	if (values > f->scratch->values_cap) {
		float *v = realloc(f->scratch->values, values * sizeof *v);
		if (!v)
			return -1;
		f->scratch->values = v;
		f->scratch->values_cap = values;
	}
	if (cells > f->scratch->cells_cap) {
		struct graph_cell *g = realloc(f->scratch->cells, cells * sizeof *g);
		if (!g)
			return -1;
		f->scratch->cells = g;
		f->scratch->cells_cap = cells;
	}
	return 0;
}

static int grow_heat(struct frame *f, size_t columns)
{
	struct graph_scratch *g = f->scratch;
	if (columns <= g->heat_cap)
		return 0;
	uint32_t *h = realloc(g->heat, columns * TRACE_LAT_BUCKETS * sizeof *h);
	if (!h)
		return -1;
	g->heat = h;
	bool *t = realloc(g->heat_traced, columns * sizeof *t);
	if (!t)
		return -1;
	g->heat_traced = t;
	g->heat_cap = columns;
	return 0;
}

static float sample_value(const struct frame *f, const struct graph_series_def *series, int dev,
			  uint64_t n)
{
	if (series->system)
		return history_sys_value(f->hist, (enum history_sys_metric)series->metric, n);
	if (dev < 0)
		return NAN;
	return history_value(f->hist, (size_t)dev, (enum history_metric)series->metric, n);
}

/* count dot columns: each the mean of its samples held (NaN when none is). */
static void fetch_series(const struct frame *f, const struct span *sp, const char *device,
			 const struct graph_series_def *series, float *out, size_t count)
{
	int dev = series->system ? -1 : history_device_find(f->hist, device);
	for (size_t i = 0; i < count; i++) {
		int64_t from = sp->first + (int64_t)i * sp->zoom;
		double sum = 0;
		int k = 0;
		for (int64_t n = from < 0 ? 0 : from; n < from + sp->zoom && n < (int64_t)sp->end; n++) {
			float v = sample_value(f, series, dev, (uint64_t)n);
			if (!isnan(v)) {
				sum += v;
				k++;
			}
		}
		out[i] = k ? (float)(sum / k) : NAN;
	}
}

/* The limit lines drawn across a strip: the line series right after its own. */
static size_t strip_lines(const struct span *sp, const struct strip *s)
{
	const struct graph_metric *m = sp->metric;
	size_t k = 0;
	for (const struct graph_series_def *o = s->series + 1;
	     o < m->series + m->nseries && o->line != GRAPH_AREA; o++)
		k++;
	return k;
}

/* The strip's series into values[0..count), its lines into the blocks after; what they
 * hold and the largest value of all. */
static enum graph_fill fetch_strip(const struct frame *f, const struct span *sp,
				   const struct strip *s, size_t count, double *max)
{
	enum graph_fill fill = GRAPH_NO_DATA;
	*max = 0;
	for (size_t k = 0; k <= strip_lines(sp, s); k++) {
		float *v = f->scratch->values + k * count;
		fetch_series(f, sp, s->device, s->series + k, v, count);
		enum graph_fill one = graph_fill_of(v, count);
		fill = one > fill ? one : fill;
		double mk = graph_max(v, count);
		*max = mk > *max ? mk : *max;
	}
	return fill;
}

static float latest(const float *v, size_t count)
{
	for (size_t i = count; i > 0; i--)
		if (!isnan(v[i - 1]))
			return v[i - 1];
	return NAN;
}

/* The Y axis's column and the blank gutter left of it, for the labels. */
static void draw_gutter(const struct frame *f, const struct rect *p)
{
	unsigned long axis = ui_attr(&f->style, TR_AXIS);
	for (int y = p->y; y < p->y + p->h; y++) {
		ui_fill(y, p->x - GUTTER, GUTTER - 1, ui_attr(&f->style, TR_NORMAL));
		ui_put(y, p->x - 1, 1, axis, ui_sym(&f->style, "│", "|"));
	}
}

static void draw_y_labels(const struct frame *f, const struct strip *s, const struct span *sp,
			  double top)
{
	char buf[16];
	unsigned long axis = ui_attr(&f->style, TR_AXIS);
	const struct rect *p = &s->plot;
	draw_gutter(f, p);
	enum graph_unit unit = graph_series_unit(sp->metric, s->series);
	graph_format_value(top, unit, buf, sizeof buf);
	ui_putf(p->y, p->x - GUTTER, GUTTER - 1, axis, "%*s", GUTTER - 1, buf);
	if (p->h >= 5) {
		graph_format_value(top / 2, unit, buf, sizeof buf);
		ui_putf(p->y + p->h / 2, p->x - GUTTER, GUTTER - 1, axis, "%*s", GUTTER - 1, buf);
	}
	ui_putf(p->y + p->h - 1, p->x - GUTTER, GUTTER - 1, axis, "%*s", GUTTER - 1, "0");
}

/* The strip's title over its whole label row, in its colour; returns the cells it takes. */
static int put_title(const struct frame *f, const struct strip *s, const char *title)
{
	ui_fill(s->label_y, s->plot.x - GUTTER, s->plot.w + GUTTER, ui_attr(&f->style, TR_NORMAL));
	return ui_put(s->label_y, s->plot.x - GUTTER, s->plot.w + GUTTER, ui_attr(&f->style, s->role),
		      title);
}

/* "loop0 write 12M" on the label row; returns the cells it takes. */
static int draw_name(const struct frame *f, const struct strip *s, const struct span *sp,
		     const float *v, size_t count)
{
	char now[16], title[160];
	graph_format_value(latest(v, count), graph_series_unit(sp->metric, s->series), now,
			   sizeof now);
	snprintf(title, sizeof title, "%s%s%s %s", s->device ? s->device : "", s->device ? " " : "",
		 s->series->label, now);
	return put_title(f, s, title);
}

static int draw_label(const struct frame *f, const struct strip *s, const struct span *sp,
		      const float *v, size_t count, double max)
{
	char now[16], top[16];
	enum graph_unit unit = graph_series_unit(sp->metric, s->series);
	graph_format_value(max, unit, top, sizeof top);
	int w = draw_name(f, s, sp, v, count);
	char peak[160];
	size_t used = text_appendf(peak, sizeof peak, 0, "  peak %s", top);
	for (size_t k = 1; k <= strip_lines(sp, s); k++) {
		const struct graph_series_def *o = s->series + k;
		graph_format_value(latest(v + k * count, count), unit, now, sizeof now);
		used = text_appendf(peak, sizeof peak, used, "  %s%s %s",
				    graph_line_glyph(o->line, f->style.utf8), o->label, now);
	}
	return w + ui_put(s->label_y, s->plot.x - GUTTER + w, s->plot.w + GUTTER - w,
			  ui_attr(&f->style, TR_DIM), peak);
}

/* A strip with nothing in view keeps its label row only ("loop0 read 0"). */
static void draw_collapsed(const struct frame *f, const struct strip *s, const struct span *sp,
			   const float *v, size_t count)
{
	int w = draw_name(f, s, sp, v, count);
	int x = s->plot.x - GUTTER;
	ui_put(s->label_y, x + w, s->plot.w + GUTTER - w, ui_attr(&f->style, TR_DIM),
	       "  (nothing in view)");
}

/* The limits as lines across the plot, each with its glyph, over the strip's own curve. */
static void draw_lines(const struct frame *f, const struct strip *s, const struct span *sp,
		       double top)
{
	const struct rect *p = &s->plot;
	size_t count = (size_t)p->w * (size_t)sp->spc;
	unsigned long a = ui_attr(&f->style, TR_DIM);
	for (size_t k = 1; k <= strip_lines(sp, s); k++) {
		const float *v = f->scratch->values + k * count;
		const char *glyph = graph_line_glyph(s->series[k].line, f->style.utf8);
		for (int col = 0; col < p->w; col++) {
			int row = graph_line_row(v[(size_t)col * (size_t)sp->spc + (size_t)sp->spc - 1],
						 top, p->h);
			if (row >= 0)
				ui_put(p->y + row, p->x + col, 1, a, glyph);
		}
	}
}

/* The wide character of a rendered cell: ASCII or a 3-byte UTF-8 glyph. */
static wchar_t cell_wchar(const char *g)
{
	const unsigned char *u = (const unsigned char *)g;
	if (!u[0])
		return L' ';
	if (u[0] < 0x80)
		return (wchar_t)u[0];
	return (wchar_t)((u[0] & 0x0F) << 12 | (u[1] & 0x3F) << 6 | (u[2] & 0x3F));
}

/* One call per row: the plot is the largest thing redrawn every sample. */
static void draw_plot(const struct frame *f, const struct strip *s, const struct span *sp,
		      double top)
{
	const struct rect *p = &s->plot;
	size_t count = (size_t)p->w * (size_t)sp->spc;
	graph_render(f->scratch->values, count, top, p->w, p->h, f->glyphs, f->scratch->cells);
	wchar_t line[LABEL_COLS_MAX];
	int w = p->w < LABEL_COLS_MAX ? p->w : LABEL_COLS_MAX;
	attrset((attr_t)ui_attr(&f->style, s->role));
	for (int row = 0; row < p->h; row++) {
		for (int col = 0; col < w; col++)
			line[col] = cell_wchar(f->scratch->cells[row * p->w + col].glyph);
		mvaddnwstr(p->y + row, p->x, line, w);
	}
	attrset(A_NORMAL);
}

#define GROUPS_MAX 256
#define GROUP_MAX 8

/* Cells of the label row (lane 0) already taken by the title or a mark's label. */
struct lanes {
	bool taken[1][LABEL_COLS_MAX];
	int w;
};

static bool lane_free(const struct lanes *l, int lane, int from, int to)
{
	if (from < 0 || to > l->w)
		return false;
	for (int x = from; x < to; x++)
		if (l->taken[lane][x])
			return false;
	return true;
}

static void lane_take(struct lanes *l, int lane, int from, int to)
{
	for (int x = from < 0 ? 0 : from; x < to && x < l->w; x++)
		l->taken[lane][x] = true;
}

static bool mark_is_own(const struct frame *f, const struct history_mark *m, const char *device);

static void mark_label(const struct frame *f, const struct history_mark *m, const char *device,
		       char *out, size_t len)
{
	char label[MOUNT_OPTS_MAX + 80];
	if (mark_is_own(f, m, device))
		snprintf(label, sizeof label, "%s", m->label);
	else
		snprintf(label, sizeof label, "%s: %s", m->object, m->label);
	ui_text_for_terminal(&f->style, label, out, len);
}

/* Marks about the strip's own device (and user marks, tracing on or off) come first for
 * label room. */
static bool mark_is_own(const struct frame *f, const struct history_mark *m, const char *device)
{
	if (m->kind == EVENT_USER_MARK || m->kind == EVENT_TRACE)
		return true;
	char dev[MOUNT_PATH_MAX];
	frame_mark_device(f, m, dev, sizeof dev);
	return device && strcmp(dev, device) == 0;
}

/* Marks of one column (one sample, or two in a braille cell), newest first. */
struct mark_group {
	const struct history_mark *m[GROUP_MAX];
	uint64_t number[GROUP_MAX];        /* history_mark_number(): the marks panel's too */
	size_t n;
	int col;
};

/* "[3,4]": the numbers the marks panel lists them under, in the order they happened. */
static void group_numbers(const struct mark_group *g, char *out, size_t len)
{
	size_t used = text_appendf(out, len, 0, "[");
	for (size_t i = g->n; i > 0; i--)
		used = text_appendf(out, len, used, "%s%llu", i == g->n ? "" : ",",
				    (unsigned long long)g->number[i - 1]);
	text_appendf(out, len, used, "]");
}

/* "[3,4] sched bfq→none, nr_requests 256→128": the group's labels in the order they happened. */
static void group_label(const struct frame *f, const struct mark_group *g, const char *device,
			char *out, size_t len)
{
	group_numbers(g, out, len);
	size_t used = strlen(out);
	for (size_t i = g->n; i > 0 && used + 1 < len; i--) {
		char one[MOUNT_OPTS_MAX + 80];
		mark_label(f, g->m[i - 1], device, one, sizeof one);
		used = text_appendf(out, len, used, "%s%s", i == g->n ? " " : ", ", one);
	}
}

static bool group_selected(const struct frame *f, const struct mark_group *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->number[i] == f->mark_selected)
			return true;
	return false;
}

/* The marks panel's selected mark stands out in the selection's colours. */
static unsigned long group_attr(const struct frame *f, const struct mark_group *g)
{
	bool user = false;
	for (size_t i = 0; i < g->n; i++)
		user |= g->m[i]->kind == EVENT_USER_MARK;
	if (group_selected(f, g))
		return ui_attr(&f->style, TR_SELECTED);
	return ui_attr(&f->style, user ? TR_MARK_USER : TR_MARK);
}

static void draw_line(const struct frame *f, const struct strip *s, const struct mark_group *g)
{
	const struct rect *p = &s->plot;
	unsigned long a = group_attr(f, g);
	for (int row = 0; row < p->h; row++) {
		const char *glyph = f->scratch->cells[row * p->w + g->col].glyph;
		ui_put(p->y + row, p->x + g->col, 1, a, glyph[0] ? glyph : ui_sym(&f->style, "│", "|"));
	}
}

/* On the label row: "┃text" right of the line, or "text┃" left of it; text whole, or
 * (right only, room for at least min cells) cut with an ellipsis. */
static bool label_on_row(const struct frame *f, const struct strip *s, const struct mark_group *g,
			 struct lanes *l, const char *text, int min)
{
	int col = g->col, tw = ui_text_width(text);
	int room = 0;
	while (col + room < l->w && !l->taken[0][col + room])
		room++;
	int x0 = s->plot.x;
	unsigned long a = group_attr(f, g);
	const char *bar = ui_sym(&f->style, "┃", "|");
	if (room >= tw + 1 || (room - 1 >= min && !lane_free(l, 0, col - tw, col + 1))) {
		int w = room < tw + 1 ? room : tw + 1;
		ui_put(s->label_y, x0 + col, 1, a, bar);
		ui_put_ellipsis(&f->style, s->label_y, x0 + col + 1, w - 1, a, text);
		lane_take(l, 0, col, col + w + 1);
		return true;
	}
	if (!lane_free(l, 0, col - tw, col + 1))
		return false;
	ui_put(s->label_y, x0 + col - tw, tw, a, text);
	ui_put(s->label_y, x0 + col, 1, a, bar);
	lane_take(l, 0, col - tw - 1, col + 1);
	return true;
}

/* Marks whose numbers share one place on the label row: neighbouring columns, left to
 * right, whose numbers would not fit apart.  Cells [x0, x1) are theirs (a gap cell
 * included); the text goes right of the first line ("┃[3-5]"), left of the last one near
 * the right edge ("[3-5]┃"), or after the strip's title when the first is under it
 * ("◂[1,2]"). */
struct cluster {
	size_t first, n;            /* into the groups in column order */
	int x0, x1;
	bool left, shifted, drawn;
	char text[160];
};

/* The numbers of the cluster's marks into nums; how many. */
static size_t cluster_collect(const struct mark_group *g, const size_t *order,
			      const struct cluster *k, uint64_t *nums)
{
	size_t n = 0;
	for (size_t j = k->first; j < k->first + k->n; j++)
		for (size_t i = 0; i < g[order[j]].n && n < GRAPH_MARK_NUMBERS_MAX; i++)
			nums[n++] = g[order[j]].number[i];
	return n;
}

/* Where the cluster's text goes, given the first free cell after the title: right of its
 * first line, else left of its last one; "[2]", "[3,4]", "[3-7]", ascending whatever
 * strip or column the marks came from, and when neither side holds every number, what
 * the roomier side holds with an ellipsis for the rest ("[24,25,…,38]"). */
static void cluster_place(const struct mark_group *g, const size_t *order, struct cluster *k,
			  int free_from, int w, bool utf8)
{
	static_assert(GRAPH_MARK_NUMBERS_MAX >= GROUPS_MAX * GROUP_MAX, "every number");
	uint64_t nums[GRAPH_MARK_NUMBERS_MAX];
	size_t n = cluster_collect(g, order, k, nums);
	int first = g[order[k->first]].col, last = g[order[k->first + k->n - 1]].col;
	k->shifted = first < free_from;
	k->x0 = k->shifted ? free_from : first;
	int right = w - k->x0 - 1, left = last - free_from - 1;
	int tw = graph_mark_numbers(nums, n, INT_MAX, utf8, k->text, sizeof k->text);
	if (tw > right && tw > left)
		tw = graph_mark_numbers(nums, n, right > left ? right : left, utf8, k->text,
					sizeof k->text);
	k->x1 = k->x0 + tw + 2;
	k->left = tw > right;
	if (k->left) {
		k->x0 = last - tw - 1;
		k->x1 = last + 1;
	}
}

/* The groups (in column order) as clusters: a group joins the one before when its line
 * falls in that one's cells, and clusters merge while one's text runs into the next. */
static size_t make_clusters(const struct mark_group *g, const size_t *order, size_t ng,
			    int free_from, int w, bool utf8, struct cluster *c)
{
	size_t nc = 0;
	for (size_t j = 0; j < ng; j++) {
		if (g[order[j]].col >= w)
			continue;
		if (nc && g[order[j]].col < c[nc - 1].x1) {
			c[nc - 1].n = j + 1 - c[nc - 1].first;
		} else {
			c[nc] = (struct cluster){ .first = j, .n = 1 };
			nc++;
		}
		cluster_place(g, order, &c[nc - 1], free_from, w, utf8);
		while (nc > 1 && c[nc - 1].x0 < c[nc - 2].x1) {
			c[nc - 2].n = c[nc - 1].first + c[nc - 1].n - c[nc - 2].first;
			nc--;
			cluster_place(g, order, &c[nc - 1], free_from, w, utf8);
		}
	}
	return nc;
}

static unsigned long cluster_attr(const struct frame *f, const struct mark_group *g,
				  const size_t *order, const struct cluster *k)
{
	unsigned long a = group_attr(f, &g[order[k->first]]);
	for (size_t j = k->first; j < k->first + k->n; j++) {
		if (group_selected(f, &g[order[j]]))
			return group_attr(f, &g[order[j]]);
		if (g[order[j]].m[0]->kind == EVENT_USER_MARK)
			a = group_attr(f, &g[order[j]]);
	}
	return a;
}

static void draw_cluster(const struct frame *f, const struct strip *s, const struct mark_group *g,
			 const size_t *order, const struct cluster *k, int w)
{
	unsigned long a = cluster_attr(f, g, order, k);
	const char *bar = ui_sym(&f->style, "┃", "|");
	int x = s->plot.x + k->x0, tw = ui_text_width(k->text);
	if (k->left) {
		ui_put(s->label_y, x + 1, tw, a, k->text);
		ui_put(s->label_y, x + 1 + tw, 1, a, bar);
		return;
	}
	ui_put(s->label_y, x, 1, a, k->shifted ? ui_sym(&f->style, "◂", "<") : bar);
	ui_put_ellipsis(&f->style, s->label_y, x + 1, w - k->x0 - 1 > 0 ? w - k->x0 - 1 : 0, a,
			k->text);
}

static void lane_give_back(struct lanes *l, int from, int to)
{
	for (int x = from < 0 ? 0 : from; x < to && x < l->w; x++)
		l->taken[0][x] = false;
}

/* Every mark gets its number on the label row: neighbours too close for theirs apart
 * share one ("[3-5]", the marks panel is their legend).  Then a mark alone in its place
 * gets its text there too where there is room, the strip's own marks, then newer ones,
 * first. */
static void label_groups(const struct frame *f, const struct strip *s, struct mark_group *g,
			 size_t ng, struct lanes *l)
{
	size_t order[GROUPS_MAX], where[GROUPS_MAX];
	struct cluster c[GROUPS_MAX];
	for (size_t i = 0; i < ng; i++) {   /* by column: an insertion sort of at most 256 */
		size_t j = i;
		for (; j > 0 && g[order[j - 1]].col > g[i].col; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	int free_from = 0;
	while (free_from < l->w && l->taken[0][free_from])
		free_from++;
	size_t nc = make_clusters(g, order, ng, free_from, l->w, f->style.utf8, c);
	for (size_t k = 0; k < nc; k++) {
		lane_take(l, 0, c[k].x0, c[k].x1);
		for (size_t j = c[k].first; j < c[k].first + c[k].n; j++)
			where[order[j]] = k;
	}
	char text[MOUNT_OPTS_MAX * 2], num[64];
	for (size_t i = 0; i < ng; i++) {
		struct cluster *k = g[i].col < l->w ? &c[where[i]] : NULL;
		if (!k || k->n != 1 || k->shifted)
			continue;
		lane_give_back(l, k->x0, k->x1);
		group_label(f, &g[i], s->device, text, sizeof text);
		group_numbers(&g[i], num, sizeof num);
		k->drawn = label_on_row(f, s, &g[i], l, text, ui_text_width(num) + 6);
		if (!k->drawn)
			lane_take(l, 0, k->x0, k->x1);
	}
	for (size_t k = 0; k < nc; k++)
		if (!c[k].drawn)
			draw_cluster(f, s, g, order, &c[k], l->w);
}

/* The marks in view as groups of one column, the strip's own first, then newer ones. */
static size_t collect_groups(const struct frame *f, const struct strip *s, const struct span *sp,
			     struct mark_group *out, size_t max)
{
	size_t nm = history_mark_count(f->hist), ng = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct mark_group g = { { NULL }, { 0 }, 0, -1 };
		for (size_t i = nm; i > 0; i--) {
			const struct history_mark *m = history_mark_get(f->hist, i - 1);
			if ((int64_t)m->n < sp->first)
				break;
			if (m->n >= sp->end || !frame_mark_shown(f, m) || mark_is_own(f, m, s->device) != (pass == 0))
				continue;
			int col = (int)(((int64_t)m->n - sp->first) / span_per_cell(sp));
			if (col < 0 || col >= s->plot.w)
				continue;
			if (g.n && (col != g.col || g.n == GROUP_MAX)) {
				if (ng < max)
					out[ng++] = g;
				g.n = 0;
			}
			g.col = col;
			g.number[g.n] = history_mark_number(f->hist, i - 1);
			g.m[g.n++] = m;
		}
		if (g.n && ng < max)
			out[ng++] = g;
	}
	return ng;
}

/* Marks: a vertical line through the plot at the sample's column, and its number (and
 * its label when there is room) on the label row; the marks of one column share one
 * label, neighbours too close share their numbers.
 * title_w: cells of the label row the strip's title and peak take. */
static void draw_marks(const struct frame *f, const struct strip *s, const struct span *sp,
		       int title_w)
{
	static_assert(sizeof(struct mark_group) * GROUPS_MAX < 256 * 1024, "stack");
	struct mark_group groups[GROUPS_MAX];
	size_t ng = collect_groups(f, s, sp, groups, GROUPS_MAX);
	if (!ng)
		return;
	for (size_t i = 1; i < ng; i++) {
		if (!group_selected(f, &groups[i]))
			continue;
		/* the selected mark's label gets the room first */
		struct mark_group sel = groups[i];
		memmove(&groups[1], &groups[0], i * sizeof groups[0]);
		groups[0] = sel;
		break;
	}
	struct lanes l;
	memset(&l, 0, sizeof l);
	l.w = s->plot.w < LABEL_COLS_MAX ? s->plot.w : LABEL_COLS_MAX;
	lane_take(&l, 0, 0, title_w - GUTTER + 1);
	for (size_t i = 0; i < ng; i++)
		draw_line(f, s, &groups[i]);
	label_groups(f, s, groups, ng, &l);
}

/* ---- the latency heat map (metric "latency"): the eBPF view's histograms ---- */

/* The strip's disk (a partition's is its disk's: the kernel side counts whole disks). */
static const struct device *heat_disk(const struct frame *f, const struct strip *s)
{
	const struct device *d = s->device && f->snap ? snapshot_find_device(f->snap, s->device) : NULL;
	if (d && d->is_partition)
		d = snapshot_find_device(f->snap, d->parent);
	return d;
}

static void heat_add_sample(const struct frame *f, const struct device *d, enum trace_dir dir,
			    int64_t n, uint32_t *col, bool *traced)
{
	const uint32_t *h = n >= 0 && d && f->trace_hist
		? trace_history_hist(f->trace_hist, d->major, d->minor, dir, (uint64_t)n) : NULL;
	if (!h)
		return;
	*traced = true;
	for (size_t b = 0; b < TRACE_LAT_BUCKETS; b++)
		col[b] = h[b] > UINT32_MAX - col[b] ? UINT32_MAX : col[b] + h[b];
}

/* Each column sums the histograms of its samples; false when none was traced. */
static bool heat_fetch(const struct frame *f, const struct span *sp, const struct strip *s,
		       struct heat_grid *g)
{
	const struct device *d = heat_disk(f, s);
	bool any = false;
	for (int c = 0; c < sp->plot_w; c++) {
		uint32_t *col = f->scratch->heat + (size_t)c * TRACE_LAT_BUCKETS;
		bool *traced = &f->scratch->heat_traced[c];
		memset(col, 0, TRACE_LAT_BUCKETS * sizeof *col);
		*traced = false;
		int64_t from = sp->first + (int64_t)c * span_per_cell(sp);
		for (int64_t n = from; n < from + span_per_cell(sp) && n < (int64_t)sp->end; n++)
			heat_add_sample(f, d, (enum trace_dir)s->series->metric, n, col, traced);
		any |= *traced;
	}
	*g = (struct heat_grid){ f->scratch->heat, f->scratch->heat_traced, sp->plot_w };
	return any;
}

/* The latency each row starts at, at the top, middle and bottom. */
static void heat_y_labels(const struct frame *f, const struct strip *s, int lo, int hi,
			  bool outliers)
{
	unsigned long axis = ui_attr(&f->style, TR_AXIS);
	const struct rect *p = &s->plot;
	draw_gutter(f, p);
	int rows[3] = { 0, p->h >= 5 ? p->h / 2 : -1, p->h - 1 };
	for (int i = 0; i < 3; i++) {
		if (rows[i] < 0 || (i == 2 && rows[i] == 0))
			continue;
		int first, last;
		char buf[16];
		heat_row_buckets(rows[i], p->h, lo, hi, outliers, &first, &last);
		uint64_t us = trace_bucket_low((size_t)first);
		if (outliers && rows[i] == 0)   /* the outliers' row: everything slower */
			heat_format_over(us, f->style.utf8, buf, sizeof buf);
		else
			heat_format_us(us, f->style.utf8, buf, sizeof buf);
		ui_putf(p->y + rows[i], p->x - GUTTER, GUTTER - 1, axis, "%*s", GUTTER - 1, buf);
	}
}

/* Lighter shades in load_low's colour, then load_mid, the darkest in load_high: without
 * colour the characters alone carry the count. */
static void heat_draw_cells(const struct frame *f, const struct strip *s)
{
	static const enum theme_role roles[3] = { TR_LOAD_LOW, TR_LOAD_MID, TR_LOAD_HIGH };
	const struct rect *p = &s->plot;
	for (int row = 0; row < p->h; row++)
		for (int col = 0; col < p->w; col++) {
			const struct graph_cell *cell = &f->scratch->cells[row * p->w + col];
			int level = heat_cell_level(cell);
			if (level > 0)
				ui_put(p->y + row, p->x + col, 1,
				       ui_attr(&f->style, roles[(level - 1) * 3 / (HEAT_LEVELS - 1)]),
				       cell->glyph);
		}
}

/* "loop0 read latency p50 96µs p99 1.02ms  @ 412": the newest traced column's quantiles,
 * and what the darkest shade stands for. */
static int heat_label(const struct frame *f, const struct strip *s, const struct heat_grid *g,
		      uint64_t max)
{
	char p50[16] = "-", p99[16] = "-", title[160];
	for (int c = g->width; c > 0; c--) {
		if (!g->traced[c - 1])
			continue;
		uint64_t h[TRACE_LAT_BUCKETS];
		for (size_t b = 0; b < TRACE_LAT_BUCKETS; b++)
			h[b] = g->counts[(size_t)(c - 1) * TRACE_LAT_BUCKETS + b];
		double q50 = trace_quantile(h, TRACE_LAT_BUCKETS, 0.5);
		double q99 = trace_quantile(h, TRACE_LAT_BUCKETS, 0.99);
		if (q50 >= 0)
			heat_format_us((uint64_t)q50, f->style.utf8, p50, sizeof p50);
		if (q99 >= 0)
			heat_format_us((uint64_t)q99, f->style.utf8, p99, sizeof p99);
		break;
	}
	snprintf(title, sizeof title, "%s %s p50 %s p99 %s", s->device ? s->device : "",
		 s->series->label, p50, p99);
	int w = put_title(f, s, title);
	if (!max)
		return w;
	char scale[48];
	snprintf(scale, sizeof scale, "  %c %llu/cell", HEAT_RAMP[HEAT_LEVELS - 1],
		 (unsigned long long)max);
	return w + ui_put(s->label_y, s->plot.x - GUTTER + w, s->plot.w + GUTTER - w,
			  ui_attr(&f->style, TR_DIM), scale);
}

static void heat_note(const struct frame *f, const struct strip *s)
{
	const char *note = !f->live ? "no trace data here: recorded without tracing"
			 : f->tracing ? "tracing: histograms from the next sample"
			 : "no trace data: b turns tracing on (root, or CAP_BPF and CAP_PERFMON)";
	ui_put_ellipsis(&f->style, s->plot.y + (s->plot.h - 1) / 2, s->plot.x + 1, s->plot.w - 2,
			ui_attr(&f->style, TR_DIM), note);
}

/* A heat map strip in place of a line; returns the cells its title takes. */
static int heat_strip(const struct frame *f, const struct strip *s, const struct span *sp)
{
	struct heat_grid g;
	bool any = heat_fetch(f, sp, s, &g);
	int lo, hi;
	bool outliers;
	heat_range(&g, s->plot.h, &lo, &hi, &outliers);
	uint64_t max = heat_render(&g, s->plot.h, lo, hi, outliers, f->scratch->cells);
	heat_y_labels(f, s, lo, hi, outliers);
	heat_draw_cells(f, s);
	if (!any)
		heat_note(f, s);
	return heat_label(f, s, &g, max);
}

/* The time (monotonic seconds) of the newest sample held of each cell, NaN when it
 * holds none. */
static void cell_times(const struct frame *f, const struct span *sp, double *t)
{
	for (int col = 0; col < sp->plot_w && col < LABEL_COLS_MAX; col++) {
		int64_t from = sp->first + (int64_t)col * span_per_cell(sp);
		int64_t n = from + span_per_cell(sp) - 1;
		if (n >= (int64_t)sp->end)
			n = (int64_t)sp->end - 1;
		if (n >= 0 && !history_has(f->hist, (uint64_t)n))
			n = -1;   /* the history starts after the cell: nothing of it is held */
		t[col] = n >= from && n >= 0 ? history_mono(f->hist, (uint64_t)n) : NAN;
	}
}

/* Seconds a cell stands for: measured across the cells held, else from the interval. */
static double cell_seconds(const struct frame *f, const struct span *sp, const double *t)
{
	int w = sp->plot_w < LABEL_COLS_MAX ? sp->plot_w : LABEL_COLS_MAX, left = -1, right = -1;
	for (int col = 0; col < w; col++)
		if (!isnan(t[col])) {
			left = left < 0 ? col : left;
			right = col;
		}
	if (right > left && t[right] > t[left])
		return (t[right] - t[left]) / (right - left);
	return f->interval * (double)span_per_cell(sp);
}

/* Labels at round times before the newest sample ("now", "-30s", "-1m", "-1m30s"), a step
 * (10 s, 30 s, 1 min, 5 min...) chosen so they stand XLABEL_GAP cells apart or more, each
 * ending at the cell of its time. */
static void draw_x_axis(const struct frame *f, const struct span *sp, int y)
{
	unsigned long axis = ui_attr(&f->style, TR_AXIS);
	ui_fill(y, sp->plot_x - GUTTER, sp->plot_w + GUTTER, ui_attr(&f->style, TR_NORMAL));
	if (!history_count(f->hist))
		return;
	double t[LABEL_COLS_MAX];
	int w = sp->plot_w < LABEL_COLS_MAX ? sp->plot_w : LABEL_COLS_MAX;
	cell_times(f, sp, t);
	double now = history_mono(f->hist, history_count(f->hist) - 1);
	double per_cell = cell_seconds(f, sp, t);
	double step = graph_tick_step(per_cell, XLABEL_GAP);
	int col = w - 1;
	while (col >= 0 && isnan(t[col]))
		col--;
	if (col < 0 || !(step > 0))
		return;
	int right_limit = sp->plot_x + sp->plot_w;   /* labels end before this */
	/* the first round age at or after the right edge's, then one step further each */
	for (double k = ceil((now - t[col]) / step - 1e-6); col >= 0; k++) {
		double when = now - k * step;
		while (col > 0 && !isnan(t[col - 1]) && t[col - 1] >= when)
			col--;
		if (col > 0 && !isnan(t[col - 1]) && when - t[col - 1] < t[col] - when)
			col--;   /* the nearer of the two cells around it */
		if (t[col] - when > per_cell)
			break;   /* before the oldest sample shown */
		char buf[24];
		graph_format_tick(k * step, step, buf, sizeof buf);
		int lw = ui_text_width(buf), x = sp->plot_x + col - lw + 1;
		if (x < sp->plot_x)
			break;
		if (x + lw <= right_limit) {
			ui_put(y, x, lw, axis, buf);
			right_limit = x - 1;
		}
		if (col == 0)
			break;
	}
}

/* Strips per device: the series with a strip of their own. */
static size_t area_series(const struct graph_metric *m)
{
	size_t k = 0;
	for (size_t s = 0; s < m->nseries; s++)
		k += m->series[s].line == GRAPH_AREA;
	return k;
}

static size_t collect_strips(const struct frame *f, const struct graph_metric *m,
			     struct strip *out, size_t max)
{
	size_t n = 0;
	const char *devices[CONSOLE_PINS_MAX];
	size_t nd = 0;
	if (m->series[0].system) {
		devices[nd++] = NULL;
	} else if (f->npins) {
		for (size_t i = 0; i < f->npins; i++)
			devices[nd++] = f->pins[i];
	} else if (f->selected[0]) {
		devices[nd++] = f->selected;
	}
	for (size_t d = 0; d < nd; d++)
		for (size_t s = 0, k = 0; s < m->nseries && n < max; s++)
			if (m->series[s].line == GRAPH_AREA)
				out[n++] = (struct strip){ devices[d], &m->series[s],
							   k++ == 0 ? TR_GRAPH_READ : TR_GRAPH_WRITE,
							   { 0, 0, 0, 0 }, 0, GRAPH_NO_DATA };
	return n;
}

/* "journal (ext4/btrfs commit ms, ...)"; a system metric by its strips' labels, then its
 * limit lines with their glyphs: "dirty / writeback (system)  lines ─bg ┄freerun ═limit". */
static void metric_title(const struct frame *f, const struct graph_metric *m, char *out,
			 size_t len)
{
	size_t used = 0;
	if (!m->series[0].system)
		used = text_appendf(out, len, 0, "%s", m->name);
	for (size_t s = 0, k = 0; m->series[0].system && s < m->nseries; s++)
		if (m->series[s].line == GRAPH_AREA)
			used = text_appendf(out, len, used, "%s%s", k++ ? " / " : "",
					    m->series[s].label);
	if (m->note)
		used = text_appendf(out, len, used, " (%s)", m->note);
	for (size_t s = 0, k = 0; s < m->nseries; s++)
		if (m->series[s].line != GRAPH_AREA)
			used = text_appendf(out, len, used, "%s %s%s", k++ ? "" : "  lines",
					    graph_line_glyph(m->series[s].line, f->style.utf8),
					    m->series[s].label);
}

/* "5m across": the time the plot spans at this zoom. */
static void span_text(const struct frame *f, const struct span *sp, char *out, size_t len)
{
	double t[LABEL_COLS_MAX];
	char d[24];
	out[0] = '\0';
	if (sp->plot_w < 4 || !history_count(f->hist))
		return;
	cell_times(f, sp, t);
	double across = cell_seconds(f, sp, t) * sp->plot_w;
	if (across >= 1) {
		text_duration(lround(across), d, sizeof d);
		snprintf(out, len, "%s across", d);
	} else {
		snprintf(out, len, "%.1fs across", across);
	}
}

/* The metric, and while no device was chosen, that the graphs follow the busiest disk;
 * on the right where the graphs are (live, or how far back), the time they span, the
 * keys: as much of it as the row holds. */
static void draw_title(const struct frame *f, const struct rect *r, const struct span *sp)
{
	char title[200], base[96], span[32], right[160];
	metric_title(f, sp->metric, title, sizeof title);
	if (f->following && !f->npins && !sp->metric->series[0].system)
		text_appendf(title, sizeof title, strlen(title), "  following the busiest disk");
	if (f->scroll_back) {
		char age[24];
		double now = history_mono(f->hist, history_count(f->hist) - 1);
		graph_format_age(now - history_mono(f->hist, sp->end - 1), age, sizeof age);
		snprintf(base, sizeof base, "at %s  %s/%s scroll, l live", age,
			 ui_sym(&f->style, "←", "<"), ui_sym(&f->style, "→", ">"));
	} else {
		snprintf(base, sizeof base, "Tab metric  %s history", ui_sym(&f->style, "←", "<-"));
	}
	span_text(f, sp, span, sizeof span);
	int room = r->w - ui_text_width(title) - 6;
	snprintf(right, sizeof right, "%s  %s zoom  %s", span, sp->zoom > 1 ? "z/Z" : "z", base);
	if (ui_text_width(right) > room)
		snprintf(right, sizeof right, "%s  %s", span, base);
	if (ui_text_width(right) > room)
		snprintf(right, sizeof right, "%s", base);
	ui_title(&f->style, r, title, right);
}

/* The scratch memory sized for this frame; short of memory, the graphs are not
 * drawn and the loop says why. */
static void graphs_place(struct frame *f, const struct rect *r)
{
	size_t plot_w = r->w > GUTTER + 1 ? (size_t)(r->w - GUTTER - 1) : 0;
	size_t rows = r->h > 2 ? (size_t)(r->h - 2) : 0;
	size_t values = plot_w * (size_t)graph_samples_per_cell(f->glyphs) * GRAPH_SERIES_MAX;
	if (grow_buffers(f, values, plot_w * rows) < 0 ||
	    (f->metric->unit == GRAPH_UNIT_HEAT && grow_heat(f, plot_w) < 0))
		f->scratch->short_of_memory = true;
}

/* What each strip holds in view, and its rows: an empty one gives its room to the others. */
static size_t layout_strips(const struct frame *f, const struct span *sp, struct strip *strips,
			    size_t ns, int avail, int *rows)
{
	bool empty[CONSOLE_PINS_MAX * GRAPH_SERIES_MAX];
	size_t count = (size_t)sp->plot_w * (size_t)sp->spc;
	double max;
	for (size_t i = 0; i < ns; i++) {
		/* a heat map's strips keep their rows: it says itself where nothing was traced */
		strips[i].fill = sp->metric->unit == GRAPH_UNIT_HEAT
			? GRAPH_HAS_DATA : fetch_strip(f, sp, &strips[i], count, &max);
		empty[i] = strips[i].fill != GRAPH_HAS_DATA;
	}
	size_t group = area_series(sp->metric);
	return graph_strip_layout(empty, ns, group ? group : 1, avail, STRIP_MIN, rows);
}

/* Nothing in view has a value, and the metric says what it needs: say it, not zeros. */
static bool say_needs(const struct frame *f, const struct span *sp, const struct strip *strips,
		      size_t ns, const struct rect *r)
{
	for (size_t i = 0; i < ns; i++)
		if (strips[i].fill != GRAPH_NO_DATA)
			return false;
	if (!sp->metric->needs)
		return false;
	char text[256];
	snprintf(text, sizeof text, "%s%s%s: %s", strips[0].device ? strips[0].device : "",
		 strips[0].device ? " " : "", sp->metric->name, sp->metric->needs);
	ui_put(r->y + 1, r->x + 1, r->w - 2, ui_attr(&f->style, TR_DIM), text);
	return true;
}

static void draw_strip(const struct frame *f, const struct span *sp, struct strip *s, int y, int h)
{
	size_t count = (size_t)sp->plot_w * (size_t)sp->spc;
	s->label_y = y;
	s->plot = (struct rect){ y + 1, sp->plot_x, h - 1, sp->plot_w };
	if (sp->metric->unit == GRAPH_UNIT_HEAT) {
		draw_marks(f, s, sp, heat_strip(f, s, sp));
		return;
	}
	double max;
	fetch_strip(f, sp, s, count, &max);
	if (h == 1) {
		draw_collapsed(f, s, sp, f->scratch->values, count);
		return;
	}
	double top = graph_nice_top(max, graph_series_unit(sp->metric, s->series));
	int title_w = draw_label(f, s, sp, f->scratch->values, count,
				 graph_max(f->scratch->values, count));
	draw_y_labels(f, s, sp, top);
	draw_plot(f, s, sp, top);
	draw_lines(f, s, sp, top);
	draw_marks(f, s, sp, title_w);
}

static void graphs_draw(const struct frame *f, const struct rect *r)
{
	const struct graph_metric *m = f->metric;
	struct span sp = { m, f->view_end, 0, graph_samples_per_cell(f->glyphs),
			   r->x + GUTTER, r->w - GUTTER - 1, f->zoom > 1 ? f->zoom : 1 };
	size_t count = sp.plot_w > 0 ? (size_t)sp.plot_w * (size_t)sp.spc : 0;
	/* the dot columns start at multiples of the zoom (the newest may be partly filled) */
	uint64_t aligned = (sp.end + (uint64_t)sp.zoom - 1) / (uint64_t)sp.zoom * (uint64_t)sp.zoom;
	sp.first = (int64_t)aligned - (int64_t)count * sp.zoom;
	for (int y = r->y; y < r->y + r->h; y++)
		ui_fill(y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	draw_title(f, r, &sp);
	if (sp.plot_w < 4 || r->h < STRIP_MIN + 2)
		return;
	struct strip strips[CONSOLE_PINS_MAX * GRAPH_SERIES_MAX];
	size_t ns = collect_strips(f, m, strips, sizeof strips / sizeof strips[0]);
	int avail = r->h - 2;   /* title and X axis rows */
	const struct graph_scratch *g = f->scratch;
	if (g->values_cap < count * GRAPH_SERIES_MAX ||
	    g->cells_cap < (size_t)sp.plot_w * (size_t)avail ||
	    (m->unit == GRAPH_UNIT_HEAT && g->heat_cap < (size_t)sp.plot_w))
		return;   /* graphs_place could not make room */
	int rows[CONSOLE_PINS_MAX * GRAPH_SERIES_MAX];
	ns = layout_strips(f, &sp, strips, ns, avail, rows);
	if (ns == 0) {
		ui_put(r->y + 1, r->x + 1, r->w - 2, ui_attr(&f->style, TR_DIM),
		       "no device to graph");
		return;
	}
	if (say_needs(f, &sp, strips, ns, r))
		return;
	int y = r->y + 1;
	for (size_t i = 0; i < ns; i++) {
		draw_strip(f, &sp, &strips[i], y, rows[i]);
		y += rows[i];
	}
	draw_x_axis(f, &sp, r->y + r->h - 1);
}

const struct pane_def pane_graphs = {
	.name = "graphs",
	.slot = SLOT_GRAPHS,
	.place = graphs_place,
	.draw = graphs_draw,
};
