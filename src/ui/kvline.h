/* kvline.h - the "key = value" lines of the config file and of theme files. */
#ifndef IOSCOPE_KVLINE_H
#define IOSCOPE_KVLINE_H

/* Split line in place: blanks trimmed, a value in matching ' or " quotes unquoted.
 * 0: blank or a comment (# or ;); 1: *key and *value set; -1: no '=' in the line. */
int kvline_split(char *line, char **key, char **value);

#endif
