// SPDX-License-Identifier: GPL-2.0
/*
 * model_file.c - read a model file and parse it with sp_model_parse().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model_file.h"

int model_file_load(const char *path, struct sp_model *m, char *err, size_t len)
{
	static char text[SP_MODEL_TEXT_MAX + 1];
	struct sp_parse_error pe;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	if (n > SP_MODEL_TEXT_MAX) {
		snprintf(err, len, "%s: larger than %d bytes", path, SP_MODEL_TEXT_MAX);
		return -1;
	}
	if (sp_model_parse(text, n, m, &pe)) {
		snprintf(err, len, "%s:%d: %s: %s", path, pe.line, pe.field,
			 pe.msg ? pe.msg : "invalid");
		return -1;
	}
	return 0;
}

int model_file_load_warn(const char *tool, const char *path, struct sp_model *m)
{
	char err[512];

	if (!model_file_load(path, m, err, sizeof(err)))
		return 0;
	fprintf(stderr, "%s: %s\n", tool, err);
	return -1;
}
