/* test_session_log_scan.c - the scanner of the recorder's own sample lines reads
 * each exactly as the JSON reader does, and gives back every line it was not made
 * for, so that the JSON reader judges it. */
#include "unit.h"

#include <string.h>

#include "record_fixture.h"
#include "session_log.h"
#include "session_log_sample.h"

/* The device list and mounts in force: the fixture's own identities. */
static struct snapshot state;

static int setup(void **unused)
{
	snapshot_init(&state);
	fixture_snapshot(&state, 4);
	return 0;
}

static int teardown(void **unused)
{
	snapshot_free(&state);
	return 0;
}

/* A sample as the recorder writes it, formatted again: equal text, equal sample. */
static char *formatted(const struct snapshot *s)
{
	struct jsonw w;
	jsonw_init(&w);
	assert_int_equal(session_log_format_sample(s, &w), 0);
	char *text = strndup(w.buf, w.len);
	jsonw_free(&w);
	return text;
}

/* What the JSON reader makes of line: 0 read (into *out), -1 refused. */
static int json_read(const char *line, struct snapshot *out)
{
	json_object *o = json_tokener_parse(line);
	struct error err = { "" };
	int rc = o ? session_log_parse_sample(o, &state, &state, out, &err) : -1;
	json_object_put(o);
	return rc;
}

/* Scans line (without its newline); when the scanner takes it, the JSON reader
 * must read the same.  Returns what the scanner said. */
static int scan_agrees(const char *line)
{
	size_t len = strlen(line);
	while (len && line[len - 1] == '\n')
		len--;
	char *copy = strndup(line, len);
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	struct error err = { "" };
	int rc = session_log_scan_sample(copy, len, &state, &state, &a, &err);
	if (rc == 1) {
		assert_int_equal(json_read(copy, &b), 0);
		char *ta = formatted(&a), *tb = formatted(&b);
		assert_string_equal(ta, tb);
		assert_int_equal(a.nmounts, b.nmounts);
		for (size_t i = 0; i < a.ndevices; i++) {
			assert_int_equal(a.devices[i].settings.nitems, b.devices[i].settings.nitems);
			assert_string_equal(a.devices[i].settings.scheduler, b.devices[i].settings.scheduler);
		}
		free(ta);
		free(tb);
	}
	snapshot_free(&a);
	snapshot_free(&b);
	free(copy);
	return rc;
}

static void recorder_lines_are_scanned(void **unused)
{
	struct snapshot s;
	snapshot_init(&s);
	for (unsigned k = 1; k <= 6; k++) {
		fixture_snapshot(&s, k);
		if (k == 2)
			s.vm.have_psi = false;
		if (k == 5)
			s.vm.have_meminfo = s.vm.have_stat = false;
		char *line = formatted(&s);
		assert_int_equal(scan_agrees(line), 1);
		free(line);
	}
	snapshot_free(&s);
}

/* Lines the JSON reader takes but another writer might have shaped differently:
 * the scanner leaves them to it, and it still reads them. */
static void other_shapes_are_left_to_json(void **unused)
{
	struct snapshot s;
	snapshot_init(&s);
	fixture_snapshot(&s, 4);
	char *line = formatted(&s);
	const char *name = strstr(line, "\"name\":\"vda\"");
	assert_non_null(name);
	struct {
		const char *from, *to;
	} edits[] = {
		{ "\"seq\":", "\"seq\": " },                      /* a blank */
		{ "\"name\":\"vda\"", "\"name\":\"v\\u0064a\"" },   /* an escape */
		{ "{\"type\":\"sample\",\"seq\":4,", "{\"seq\":4,\"type\":\"sample\"," },   /* order */
		{ "\"nf\":20", "\"nf\":20,\"extra\":1" },           /* an unknown member */
	};
	for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		const char *at = strstr(line, edits[i].from);
		assert_non_null(at);
		char buf[8192];
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - line), line, edits[i].to,
			 at + strlen(edits[i].from));
		assert_int_equal(scan_agrees(buf), 0);
		struct snapshot b;
		snapshot_init(&b);
		assert_int_equal(json_read(buf, &b), 0);
		snapshot_free(&b);
	}
	free(line);
	snapshot_free(&s);
}

/* Damage: the scanner never takes it, so the JSON reader's message is what the
 * user sees. */
static void damage_is_left_to_json(void **unused)
{
	static const char *const lines[] = {
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"nosuch\",\"nf\":20,\"c\":[1]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":2000,\"c\":[1]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[-1]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[18446744073709551616]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[99999999999999999999]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[184467440737095516150]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":9223372036854775808,\"wall\":2,\"devices\":[],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[1],\"nst\":1}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[1],\"cc\":[1]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[1.5]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[01]}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[1],\"inst\":4294967296}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[{\"name\":\"vda\",\"nf\":20}],\"vm\":{}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[],\"vm\":{\"psi\":[200,0,1,1]}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[],\"vm\":{\"psi\":[0x1p3,0,1,1]}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[],\"vm\":{\"psi\":[1,1,1]}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[],\"vm\":{\"stat\":[1],\"stat\":[2]}}",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[],\"vm\":{}} x",
		"{\"type\":\"sample\",\"seq\":1,\"mono\":1,\"wall\":2,\"devices\":[],\"vm\":{}",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		print_message("line %zu\n", i);
		assert_int_equal(scan_agrees(lines[i]), 0);
	}
}

/* The smallest sample, and extremes the writer can produce, are taken. */
static void extremes_are_scanned(void **unused)
{
	assert_int_equal(scan_agrees("{\"type\":\"sample\",\"seq\":1,\"mono\":-5,\"wall\":0,\"devices\":[],\"vm\":{}}"), 1);
	/* every length around the eight digits read at once, and a digit string ended by
	 * each byte that can follow it */
	assert_int_equal(scan_agrees("{\"type\":\"sample\",\"seq\":12345678,\"mono\":-1234567,\"wall\":123456789,"
				     "\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[1,12,1234567,12345678,123456789,"
				     "1234567890123456,12345678901234567,1234567890123456789,12345678901234567890,"
				     "99999999,9999999999999999,0,10000000,18446744073709551615]}],\"vm\":{}}"), 1);
	/* 20 digits, past the 19 read unchecked */
	assert_int_equal(scan_agrees("{\"type\":\"sample\",\"seq\":10000000000000000000,\"mono\":-9223372036854775807,\"wall\":0,"
				     "\"devices\":[{\"name\":\"vda\",\"nf\":20,\"c\":[10000000000000000001]}],\"vm\":{}}"), 1);
	assert_int_equal(scan_agrees("{\"type\":\"sample\",\"seq\":18446744073709551615,\"mono\":9223372036854775807,\"wall\":-9223372036854775807,"
				     "\"devices\":[{\"name\":\"vda\",\"nf\":0,\"c\":[18446744073709551615],\"inflight\":[-1,9223372036854775807],\"inst\":4294967295}],"
				     "\"vm\":{\"psi\":[1e-300,100,0,18446744073709551615]}}  \r"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recorder_lines_are_scanned),
		cmocka_unit_test(other_shapes_are_left_to_json),
		cmocka_unit_test(damage_is_left_to_json),
		cmocka_unit_test(extremes_are_scanned),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
