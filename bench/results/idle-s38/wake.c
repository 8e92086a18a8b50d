#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
int main(int argc, char **argv)
{
	int n = atoi(argv[1]); long ns = atol(argv[2]);
	struct timespec t; struct rusage ru;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for(int i = 0; i < n; i++) {
		t.tv_nsec += ns;
		while(t.tv_nsec >= 1000000000) { t.tv_nsec -= 1000000000; t.tv_sec++; }
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	getrusage(RUSAGE_SELF, &ru);
	double us = ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec + ru.ru_stime.tv_sec * 1e6 + ru.ru_stime.tv_usec;
	printf("%d wakes: %.1f us cpu per wake (user %ld us, sys %ld us), nvcsw %ld\n", n, us / n, ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec, ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec, ru.ru_nvcsw);
	return 0;
}
