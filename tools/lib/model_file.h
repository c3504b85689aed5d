/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model_file.h - a model file read and parsed by the core's parser, for the
 * tools that run on a host (the simulator, sp-report, the benchmarks).
 */
#ifndef MODEL_FILE_H
#define MODEL_FILE_H

#include <stddef.h>

#include "sp_model.h"

/**
 * model_file_load() - read the model text in @path into @m
 * @path: a model file (Documentation/model-format.rst)
 * @m: the model to fill
 * @err: one line naming the file, and the line and field at fault
 * @len: size of @err
 *
 * Not reentrant: the text is read into one static buffer.
 *
 * Return: 0, or -1 with @err set (the file cannot be read, is larger than
 * SP_MODEL_TEXT_MAX, or does not parse); @m is then not to be used.
 */
int model_file_load(const char *path, struct sp_model *m, char *err, size_t len);

/**
 * model_file_load_warn() - model_file_load(), the error said on stderr
 * @tool: the name the message starts with
 * @path: a model file
 * @m: the model to fill
 *
 * Not reentrant, as model_file_load().
 *
 * Return: 0, or -1 after the line "@tool: error" on stderr.
 */
int model_file_load_warn(const char *tool, const char *path, struct sp_model *m);

#endif /* MODEL_FILE_H */
