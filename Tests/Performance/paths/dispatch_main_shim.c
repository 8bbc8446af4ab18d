// Profiling only (callgrind-paths.sh preloads it): under valgrind, libdispatch's dispatch_main()
// crashes the tool (the exited main thread parks in sigsuspend). This one keeps the main thread
// alive and drains the main queue itself, which is all the gateway's async main needs.
#include <poll.h>
#include <stdint.h>

extern void *_dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *);

void dispatch_main(void) {
    struct pollfd main_queue = {(int)(intptr_t)_dispatch_get_main_queue_handle_4CF(), POLLIN, 0};
    for (;;) {
        poll(&main_queue, 1, 50);
        _dispatch_main_queue_callback_4CF(0);
    }
}
