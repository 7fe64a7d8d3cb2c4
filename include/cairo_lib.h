/* cairo_lib.h - the cairo functions the plots use, loaded when a plot is made.
 *
 * Linking cairo loaded 25 more libraries (pixman, fontconfig, freetype, png, xcb,
 * X11...) into every run of ioscope, for the one command that draws
 * (docs/design.md, dependencies).  The prototypes come from cairo's own headers,
 * so a call through the table is checked like a direct one.  Only built when
 * pkg-config finds cairo (Makefile).
 */
#ifndef IOSCOPE_CAIRO_LIB_H
#define IOSCOPE_CAIRO_LIB_H

#include <cairo-svg.h>
#include <cairo.h>

#include "error.h"

/* The library's ABI has been libcairo.so.2 since cairo 1.0. */
#define CAIRO_LIB_SONAME "libcairo.so.2"

/* The single list: the table's fields and the names looked up both come from it. */
#define CAIRO_LIB_FUNCTIONS(X)                                                                    \
	X(create) X(destroy) X(status) X(status_to_string) X(save) X(restore) X(clip)            \
	X(paint) X(fill) X(stroke) X(move_to) X(line_to) X(rectangle) X(translate) X(rotate)     \
	X(set_source_rgb) X(set_source_rgba) X(set_line_width) X(set_dash)                       \
	X(select_font_face) X(set_font_size) X(show_text) X(text_extents)                        \
	X(image_surface_create) X(svg_surface_create_for_stream) X(surface_write_to_png_stream) \
	X(surface_finish) X(surface_status) X(surface_destroy)

struct cairo_lib {
#define CAIRO_LIB_FIELD(f) __typeof__(cairo_##f) *f;
	CAIRO_LIB_FUNCTIONS(CAIRO_LIB_FIELD)
#undef CAIRO_LIB_FIELD
};

/* Fills *c; -1 with err saying that plots need cairo and why it could not be loaded. */
int cairo_lib_load(struct cairo_lib *c, struct error *err);

#endif
