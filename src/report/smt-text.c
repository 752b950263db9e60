/*
 * smt-text.c - what SMT with core scheduling gave, as text (--report
 * capacity,fairness): the core's time by busy siblings against SMT off, and
 * each cookie's core time against its fair share.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "coreaudit/duration.h"
#include "report/common.h"
#include "report/sections.h"

#define D(ns, buf) ca_format_duration((ns), (buf), sizeof(buf))
#define TS(ns, buf) ca_format_timestamp((ns), (buf), sizeof(buf))

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "1.23" or "none" (no co-run: no speed-up makes SMT win). */
static const char *break_even(const struct ca_capacity_core *c, uint64_t ht_off_ns, char *buf,
			      size_t len)
{
	double s;

	if (!ca_capacity_break_even(c, ht_off_ns, &s))
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%.2f", s);
	return buf;
}

static double yield(const struct ca_capacity_core *c)
{
	uint64_t core = ca_capacity_busy_core_ns(c);

	return core ? (double)ca_capacity_busy_thread_ns(c) / (double)core : 0.0;
}

/* One core's row (@core < 0: the sum of them all, its HT-off time machine-wide). */
static void write_capacity_row(FILE *out, const struct ca_audit *audit, int core,
			       const struct ca_capacity_core *c, uint64_t ht_off_ns)
{
	const struct ca_topology *topo = &audit->pipeline->state.topo;
	char known[32], s[32], name[64] = "all";
	int used = 0;

	/* A core by its CPUs: under --cpu the audited cores are a subset, renumbered. */
	for (int i = 0; core >= 0 && i < topo->sibling_count[core]; i++)
		used += snprintf(name + used, sizeof(name) - (size_t)used, "%s%d", i ? "," : "",
				 topo->siblings[core][i]);
	used = fprintf(out, "  %-11s %12s ", name, D(c->known_ns, known));
	for (int k = 0; k <= c->cpus; k++)
		used += fprintf(out, " %5.1f%%", share(c->busy_ns[k], c->known_ns));
	fprintf(out, "%*s %7.1f%% %7.1f%% %7.1f%% %6.2f %10s\n",
		used < 60 ? 60 - used : 1, "", share(c->compatible_ns, c->known_ns),
		share(c->mixed_ns, c->known_ns), share(c->forced_ns, c->known_ns), yield(c),
		break_even(c, ht_off_ns, s, sizeof(s)));
}

static void write_capacity_header(FILE *out, int cpus)
{
	int used = fprintf(out, "  %-11s %12s ", "core (cpus)", "known");

	for (int k = 0; k <= cpus; k++)
		used += fprintf(out, " %4s=%d", "k", k);
	fprintf(out, "%*s %8s %8s %8s %6s %10s\n", used < 60 ? 60 - used : 1, "", "co-run",
		"mixed", "forced", "yield", "break-even");
}

void ca_text_capacity(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_capacity *cap = &audit->pipeline->capacity;
	struct ca_capacity_core sum;
	char busy[32], waiting[32], queued[32], s[32];
	double speedup;

	if (!audit->pipeline->has_capacity)
		return;
	ca_capacity_sum(cap, &sum);
	fprintf(out, "\ncapacity: what SMT with core scheduling gave, against SMT off "
		"(coreaudit-audit(1), CAPACITY);\n  share of known time with k CPUs of the core busy\n");
	write_capacity_header(out, sum.cpus);
	for (int core = 0; core < cap->core_count && core < top; core++)
		write_capacity_row(out, audit, core, &cap->cores[core], cap->cores[core].demand_ns);
	if (cap->core_count > top)
		fprintf(out, "  ... %d more cores (--top)\n", cap->core_count - top);
	write_capacity_row(out, audit, -1, &sum, cap->ht_off_busy_ns);
	fprintf(out, "  SMT off (one thread per core, the same runnable sets): busy %.1f%% of core "
		"time (%s), tasks waiting %s; SMT on: busy %.1f%% of core time, tasks waiting %s\n",
		share(cap->ht_off_busy_ns, cap->core_ns), D(cap->ht_off_busy_ns, busy),
		D(cap->ht_off_waiting_ns, waiting), share(ca_capacity_busy_core_ns(&sum), sum.known_ns),
		D(sum.waiting_ns, queued));
	if (!ca_capacity_break_even(&sum, cap->ht_off_busy_ns, &speedup))
		fprintf(out, "  break-even SMT speed-up: none (no two tasks co-ran: SMT gave nothing "
			"that one thread per core would not)\n");
	else
		fprintf(out, "  break-even SMT speed-up: %s (SMT with core scheduling does more than "
			"SMT off where two co-running threads do more than %s times one thread's "
			"work%s)\n", break_even(&sum, cap->ht_off_busy_ns, s, sizeof(s)), s,
			speedup >= 2.0 ? ": never, SMT off would have done as much" : "");
}

static void write_identity(FILE *out, const struct ca_audit *audit,
			   const struct ca_fair_identity *id)
{
	const struct ca_task *t = ca_tasks_lookup(&audit->pipeline->state.tasks, id->example_pid);
	const struct ca_fairness *fair = &audit->pipeline->fairness;
	char name[64], c[32], r[32], f[32], w[32], at[32];

	ca_report_identity(audit, id->value, name, sizeof(name));
	fprintf(out, "  %-18s %-16.16s %7d %12s %12s %12s %6.1f%%%s", name, t ? t->comm : "?",
		id->example_pid, D(id->competed_ns, c), D(id->received_ns, r),
		D((uint64_t)id->fair_ns, f), ca_fairness_unfairness(id),
		ca_fairness_is_finding(fair, id) ? " (over)" :
		ca_fairness_is_undecided(fair, id) ? " (over, unless the time not known was its)" :
		"");
	if (id->longest_wait_ns)
		fprintf(out, "  waited %s: task %d on CPU %d from %s", D(id->longest_wait_ns, w),
			id->longest_wait_pid, id->longest_wait_cpu, TS(id->longest_wait_start, at));
	fputc('\n', out);
}

static void write_pairs(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;
	const struct ca_fair_pair **pairs = ca_report_sorted_pairs(audit);

	if (!pairs || !fair->pair_count) {
		free(pairs);
		return;
	}
	fprintf(out, "  the worst pairs: a cookie's task runnable, not running, while the other ran "
		"on its core\n");
	for (size_t i = 0; i < fair->pair_count && i < (size_t)top; i++) {
		char waiting[64], running[64], d[32];

		ca_report_identity(audit, fair->identities[pairs[i]->waiting].value, waiting,
				   sizeof(waiting));
		ca_report_identity(audit, fair->identities[pairs[i]->running].value, running,
				   sizeof(running));
		fprintf(out, "  %-18s waited %12s while %s ran\n", waiting, D(pairs[i]->waited_ns, d),
			running);
	}
	free(pairs);
}

void ca_text_fairness(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;
	const struct ca_fair_identity **sorted;
	char unknown[32];

	if (!audit->pipeline->has_fairness)
		return;
	sorted = ca_report_sorted_identities(audit);
	fprintf(out, "\nfairness across %ss: core time received against a fair share of the core "
		"time competed for%s%s\n", audit->opts.identity == CA_IDENTITY_TAG ? "tag" : "cookie",
		fair->unknown_ns ? "; not known (a CPU unobserved, or a runnable task's identity): " :
		"",
		fair->unknown_ns ? D(fair->unknown_ns, unknown) : "");
	fprintf(out, "  %-18s %-16s %7s %12s %12s %12s %7s\n", "identity", "comm (first task)", "pid",
		"competed", "received", "fair share", "short");
	for (size_t i = 0; sorted && i < fair->identity_count && i < (size_t)top; i++)
		if (sorted[i]->competed_ns)
			write_identity(out, audit, sorted[i]);
	free(sorted);
	write_pairs(out, audit, top);
}

/* The identity a syscall was made for, or "(interrupt)": for no task. */
static void inside_name(const struct ca_audit *audit, bool is_interrupt, uint64_t inside,
			char *buf, size_t len)
{
	if (is_interrupt)
		snprintf(buf, len, "(interrupt)");
	else
		ca_report_identity(audit, inside, buf, len);
}

static void write_exposure_pairs(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_exposure *exp = &audit->pipeline->exposure;
	const struct ca_exposure_pair **pairs = ca_report_sorted_exposure(audit);

	fprintf(out, "  %-18s %-18s %12s %12s %12s %12s\n", "in the kernel", "beside", "total",
		"syscall", "irq", "softirq");
	for (size_t i = 0; pairs && i < exp->pair_count && i < (size_t)top; i++) {
		const struct ca_exposure_pair *p = pairs[i];
		char inside[64], beside[64], t[32], s[32], q[32], f[32];

		inside_name(audit, p->is_interrupt, p->inside, inside, sizeof(inside));
		ca_report_identity(audit, p->beside, beside, sizeof(beside));
		fprintf(out, "  %-18s %-18s %12s %12s %12s %12s\n", inside, beside, D(p->total_ns, t),
			D(p->ns[CA_KERNEL_SYSCALL], s), D(p->ns[CA_KERNEL_IRQ], q),
			D(p->ns[CA_KERNEL_SOFTIRQ], f));
	}
	free(pairs);
}

static void write_exposure_windows(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_exposure *exp = &audit->pipeline->exposure;
	const struct ca_tasks *tasks = &audit->pipeline->state.tasks;

	if (!exp->listed)
		return;
	fprintf(out, "  the longest windows (%llu in all)\n",
		(unsigned long long)exp->window_count);
	for (size_t i = 0; i < exp->listed && i < (size_t)top; i++) {
		const struct ca_exposure_window *w = &exp->list[i];
		const struct ca_task *in = ca_tasks_lookup(tasks, w->pid);
		const struct ca_task *by = ca_tasks_lookup(tasks, w->beside_pid);
		char at[32], length[32], inside[64], beside[64];

		inside_name(audit, w->is_interrupt, w->inside, inside, sizeof(inside));
		ca_report_identity(audit, w->beside, beside, sizeof(beside));
		fprintf(out, "  %s %10s  CPU %d %s:%d (%s) in %s %lld, beside CPU %d %s:%d (%s)\n",
			TS(w->start, at), D(w->end - w->start, length), w->cpu,
			in ? in->comm : w->pid ? "?" : "idle", w->pid, inside,
			ca_report_kernel_what(w->what), (long long)w->number,
			w->beside_cpu, by ? by->comm : "?", w->beside_pid, beside);
	}
}

void ca_text_exposure(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_exposure *exp = &audit->pipeline->exposure;

	if (!audit->pipeline->has_exposure)
		return;
	fprintf(out, "\nkernel-entry exposure: a CPU in a system call for one %s's task while a "
		"sibling ran another's, or in an interrupt beside any task\n",
		audit->opts.identity == CA_IDENTITY_TAG ? "tag" : "cookie");
	if (!audit->info.has_kernel_events) {
		fprintf(out, "  not measured: the trace has no irq, softirq or syscall events (record "
			"them with coreaudit record --kernel-entry, or trace-cmd record -e "
			"irq:irq_handler_entry -e irq:irq_handler_exit -e irq:softirq_entry -e "
			"irq:softirq_exit -e raw_syscalls)\n");
		return;
	}
	fprintf(out, "  in the kernel:");
	for (int what = 0; what < CA_KERNEL_WHAT_COUNT; what++) {
		char in[32], ex[32];

		fprintf(out, "%s %s %s (exposed %s, %.1f%%)", what ? ";" : "",
			ca_report_kernel_what(what), D(exp->in_kernel_ns[what], in),
			D(exp->exposed_ns[what], ex), share(exp->exposed_ns[what],
							   exp->in_kernel_ns[what]));
	}
	fputc('\n', out);
	if (exp->unknown_ns) {
		char unknown[32];

		fprintf(out, "  not attributed (a task's %s not known, in the kernel or beside it): %s\n",
			audit->opts.identity == CA_IDENTITY_TAG ? "tag" : "cookie",
			D(exp->unknown_ns, unknown));
	}
	write_exposure_pairs(out, audit, top);
	write_exposure_windows(out, audit, top);
}
