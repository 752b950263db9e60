/*
 * readloop.c - the reference for coreaudit's speed: the least a program can do
 * with a trace.dat through libtracecmd, read every record in global time
 * order (the same tracecmd_read_next_data() merge coreaudit uses) and look at
 * its type and pid.
 */
#include <stdio.h>

#include <trace-cmd.h>

struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle, int *rec_cpu);

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct tep_record *rec;
	unsigned long long count = 0, checksum = 0;
	int cpu;

	if (argc != 2) {
		fprintf(stderr, "usage: readloop TRACE.dat\n");
		return 2;
	}
	handle = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		fprintf(stderr, "readloop: cannot open %s\n", argv[1]);
		return 3;
	}
	tep = tracecmd_get_tep(handle);
	while ((rec = tracecmd_read_next_data(handle, &cpu))) {
		checksum += tep_data_type(tep, rec) + tep_data_pid(tep, rec);
		count++;
		tracecmd_free_record(rec);
	}
	printf("%llu records (checksum %llu)\n", count, checksum);
	tracecmd_close(handle);
	return 0;
}
