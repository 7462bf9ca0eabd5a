#define _GNU_SOURCE
#include "cfuzzsupport.h"
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

int touchd_fuzz_connect_as(int fd, const struct sockaddr *address, socklen_t length, unsigned int euid) {
    uid_t original = geteuid();
    if (euid == original) return connect(fd, address, length);
    if (syscall(SYS_setresuid, (uid_t)-1, (uid_t)euid, (uid_t)-1) != 0) return -1;
    int result = connect(fd, address, length);
    int saved = errno;
    if (syscall(SYS_setresuid, (uid_t)-1, original, (uid_t)-1) != 0) {
        /* The thread could not get its own user back: nothing after this would be trustworthy. */
        _exit(70);
    }
    errno = saved;
    return result;
}
