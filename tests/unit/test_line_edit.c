/* The console's one line editor (src/ui/line_edit.c), as prompts and the control dialogs
 * use it: moving, deleting, what may be typed, and the text handed back. */
#include "unit.h"

#include <locale.h>
#include <ncurses.h>
#include <string.h>

#include "keys.h"
#include "line_edit.h"

static char text[LINE_EDIT_MAX * 4 + 1];

static const char *typed(const struct line_edit *e, size_t *cursor)
{
	size_t at = line_edit_text(e, text, sizeof text);
	if (cursor)
		*cursor = at;
	return text;
}

static void type(struct line_edit *e, const char *s)
{
	for (; *s; s++)
		assert_int_equal(line_edit_key(e, (unsigned char)*s), LINE_EDIT_EDITING);
}

static void test_moves_and_deletes(void **state)
{
	(void)state;
	struct line_edit e;
	line_edit_set(&e, "noatime", 200, false);
	size_t cursor;
	assert_string_equal(typed(&e, &cursor), "noatime");
	assert_int_equal(cursor, 7);
	line_edit_key(&e, KC(KEY_HOME));
	line_edit_key(&e, KC(KEY_RIGHT));
	line_edit_key(&e, KC(KEY_RIGHT));
	line_edit_key(&e, KC(KEY_DC));          /* the a */
	line_edit_key(&e, KEYC_CTRL('d'));      /* the t */
	assert_string_equal(typed(&e, &cursor), "noime");
	assert_int_equal(cursor, 2);
	line_edit_key(&e, KC(KEY_BACKSPACE));
	line_edit_key(&e, 127);
	assert_string_equal(typed(&e, &cursor), "ime");
	assert_int_equal(cursor, 0);
	line_edit_key(&e, KC(KEY_LEFT));        /* stays at the start */
	line_edit_key(&e, KC(KEY_BACKSPACE));   /* nothing before it */
	type(&e, "no");
	line_edit_key(&e, KEYC_CTRL('e'));
	line_edit_key(&e, KC(KEY_RIGHT));       /* stays at the end */
	type(&e, ",x");
	assert_string_equal(typed(&e, &cursor), "noime,x");
	assert_int_equal(cursor, 7);
	line_edit_key(&e, KEYC_CTRL('a'));
	assert_string_equal(typed(&e, &cursor), "noime,x");
	assert_int_equal(cursor, 0);
	line_edit_key(&e, KEYC_CTRL('u'));
	assert_string_equal(typed(&e, &cursor), "");
}

static void test_outcomes(void **state)
{
	(void)state;
	struct line_edit e;
	line_edit_set(&e, "", 200, false);
	assert_int_equal(line_edit_key(&e, '\n'), LINE_EDIT_ACCEPT);
	assert_int_equal(line_edit_key(&e, '\r'), LINE_EDIT_ACCEPT);
	assert_int_equal(line_edit_key(&e, KC(KEY_ENTER)), LINE_EDIT_ACCEPT);
	assert_int_equal(line_edit_key(&e, KEYC_ESC), LINE_EDIT_CANCEL);
	assert_int_equal(line_edit_key(&e, KEYC_CTRL('g')), LINE_EDIT_CANCEL);
	assert_int_equal(line_edit_key(&e, KC(KEY_F(1))), LINE_EDIT_EDITING);
	assert_string_equal(typed(&e, NULL), "");   /* a function key types nothing */
}

static void test_what_may_be_typed(void **state)
{
	(void)state;
	struct line_edit e;
	line_edit_set(&e, "", 200, false);
	line_edit_key(&e, 0xe9);                    /* é */
	line_edit_key(&e, '\t');                    /* a control character: not typed */
	line_edit_key(&e, 0x9b);                    /* C1 CSI: not typed */
	size_t cursor;
	assert_string_equal(typed(&e, &cursor), "\xc3\xa9");
	assert_int_equal(cursor, 2);                /* bytes, not characters */
	line_edit_set(&e, "", 200, true);           /* a setting's value: ASCII */
	line_edit_key(&e, 0xe9);
	line_edit_key(&e, '~');
	assert_string_equal(typed(&e, NULL), "~");
}

static void test_at_most_max(void **state)
{
	(void)state;
	struct line_edit e;
	line_edit_set(&e, "abcdef", 4, false);      /* cut where it starts */
	assert_string_equal(typed(&e, NULL), "abcd");
	type(&e, "x");
	assert_string_equal(typed(&e, NULL), "abcd");
	line_edit_set(&e, "", 100000, true);        /* no more than the editor holds */
	for (int i = 0; i < LINE_EDIT_MAX + 10; i++)
		line_edit_key(&e, 'a');
	assert_int_equal(strlen(typed(&e, NULL)), LINE_EDIT_MAX);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moves_and_deletes),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_what_may_be_typed),
		cmocka_unit_test(test_at_most_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
