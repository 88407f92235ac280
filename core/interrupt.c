/* core/interrupt.c — the interruption flag (see util.h): set by signal
 * handlers, polled by long waits.  Its own file so err.c (which asks it for
 * the exit code) and util.c (which reports through err.c) form no circle. */
#include <signal.h>

#include "core/util.h"

static volatile sig_atomic_t interrupt_flag, interrupt_sig;

void eous_interrupt_set(void)
{
    interrupt_flag = 1;
}

void eous_interrupt_from_signal(int sig)
{
    if (!interrupt_sig)
        interrupt_sig = sig; /* the first signal names the exit code */
    interrupt_flag = 1;
}

int eous_interrupt_signal(void)
{
    return interrupt_sig;
}

int eous_interrupted(void)
{
    return interrupt_flag != 0;
}

void eous_interrupt_reset(void)
{
    interrupt_flag = 0;
    interrupt_sig = 0;
}
