# SPDX-License-Identifier: GPL-2.0
# tools/lib/model_file.o: the model-file loader the simulator and sp-report
# share (model_file_load(): read, then the core's sp_model_parse()).
MODEL_FILE_OBJ := $(BUILD)/tools/lib/model_file.o

$(MODEL_FILE_OBJ): tools/lib/model_file.c tools/lib/model_file.h $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@
