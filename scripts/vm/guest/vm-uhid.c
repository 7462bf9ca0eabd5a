/* vm-uhid: a HID multitouch touchscreen through /dev/uhid, so the kernel's real hid-multitouch
 * driver makes the evdev device (as a USB touchscreen's would be made).
 *
 *   vm-uhid SCRIPT
 *
 *   create NAME          create the device (one contact per report, 0..4095 on both axes)
 *   down ID X Y          contact ID touches (or moves) at X,Y
 *   up ID                contact ID lifts
 *   sleep MS
 *   destroy
 *   wait PATH                          wait until the file PATH exists (the job's "go")
 *   say TEXT
 *
 * The kernel asks for the "contact count maximum" feature report while probing; requests are
 * answered whenever the script waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const unsigned char descriptor[] = {
    0x05, 0x0D, 0x09, 0x04, 0xA1, 0x01,             /* Digitizer, Touch Screen, Application */
    0x85, 0x01,                                     /*   Report ID 1 */
    0x09, 0x22, 0xA1, 0x02,                         /*   Finger, Logical */
    0x09, 0x42, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02, /* Tip Switch */
    0x75, 0x07, 0x95, 0x01, 0x81, 0x03,             /*     padding */
    0x09, 0x51, 0x25, 0x7F, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, /* Contact Identifier */
    0x05, 0x01, 0x26, 0xFF, 0x0F, 0x75, 0x10, 0x95, 0x01,
    0x55, 0x0E, 0x65, 0x11, 0x35, 0x00, 0x46, 0x00, 0x10, /* cm, exponent -2: 4096 = 40.96 cm */
    0x09, 0x30, 0x81, 0x02,                         /*     X */
    0x09, 0x31, 0x81, 0x02,                         /*     Y */
    0xC0,                                           /*   End */
    0x05, 0x0D, 0x09, 0x54, 0x15, 0x00, 0x25, 0x7F, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, /* Contact Count */
    0x85, 0x02, 0x09, 0x55, 0x25, 0x0A, 0xB1, 0x02, /*   Report ID 2: Contact Count Maximum (feature) */
    0xC0,
};

static int fd;

static void die(const char *what) { perror(what); exit(1); }

static void send_event(struct uhid_event *ev) {
    if (write(fd, ev, sizeof *ev) != sizeof *ev) die("write /dev/uhid");
}

/* Answers the kernel's requests for up to `ms` milliseconds. */
static void serve(int ms) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = ms - ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
        if (left <= 0) return;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0) continue;
        struct uhid_event ev;
        if (read(fd, &ev, sizeof ev) <= 0) continue;
        if (ev.type == UHID_GET_REPORT) {
            struct uhid_event reply;
            memset(&reply, 0, sizeof reply);
            reply.type = UHID_GET_REPORT_REPLY;
            reply.u.get_report_reply.id = ev.u.get_report.id;
            reply.u.get_report_reply.err = 0;
            reply.u.get_report_reply.size = 2;
            reply.u.get_report_reply.data[0] = ev.u.get_report.rnum;
            reply.u.get_report_reply.data[1] = 10;
            send_event(&reply);
        } else if (ev.type == UHID_SET_REPORT) {
            struct uhid_event reply;
            memset(&reply, 0, sizeof reply);
            reply.type = UHID_SET_REPORT_REPLY;
            reply.u.set_report_reply.id = ev.u.set_report.id;
            send_event(&reply);
        }
    }
}

static void report(int tip, int id, int x, int y) {
    struct uhid_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = UHID_INPUT2;
    unsigned char *d = ev.u.input2.data;
    d[0] = 1; d[1] = tip ? 1 : 0; d[2] = id;
    d[3] = x & 0xff; d[4] = x >> 8; d[5] = y & 0xff; d[6] = y >> 8; d[7] = 1;
    ev.u.input2.size = 8;
    send_event(&ev);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: vm-uhid SCRIPT\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) die(argv[1]);
    fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
    if (fd < 0) die("/dev/uhid");
    char line[256];
    int lastx[128] = {0}, lasty[128] = {0};
    while (fgets(line, sizeof line, f)) {
        char cmd[32] = {0}, name[128] = {0};
        int id, x, y, ms;
        if (line[0] == '#' || sscanf(line, "%31s", cmd) != 1) continue;
        if (!strcmp(cmd, "create") && sscanf(line, "%*s %127[^\n]", name) == 1) {
            struct uhid_event ev;
            memset(&ev, 0, sizeof ev);
            ev.type = UHID_CREATE2;
            snprintf((char *)ev.u.create2.name, sizeof ev.u.create2.name, "%s", name);
            memcpy(ev.u.create2.rd_data, descriptor, sizeof descriptor);
            ev.u.create2.rd_size = sizeof descriptor;
            ev.u.create2.bus = 0x03; ev.u.create2.vendor = 0x1234; ev.u.create2.product = 0x0003;
            send_event(&ev);
            serve(1500);
            printf("created uhid %s\n", name); fflush(stdout);
        } else if (!strcmp(cmd, "down") && sscanf(line, "%*s %d %d %d", &id, &x, &y) == 3) {
            lastx[id & 127] = x; lasty[id & 127] = y;
            report(1, id, x, y);
        } else if (!strcmp(cmd, "up") && sscanf(line, "%*s %d", &id) == 1) {
            report(0, id, lastx[id & 127], lasty[id & 127]);
        } else if (!strcmp(cmd, "sleep") && sscanf(line, "%*s %d", &ms) == 1) {
            serve(ms);
        } else if (!strcmp(cmd, "destroy")) {
            struct uhid_event ev;
            memset(&ev, 0, sizeof ev);
            ev.type = UHID_DESTROY;
            send_event(&ev);
            printf("destroyed\n"); fflush(stdout);
        } else if (!strcmp(cmd, "wait") && sscanf(line, "%*s %127s", name) == 1) {
            while (access(name, F_OK) != 0) serve(20);
        } else if (!strcmp(cmd, "say")) { printf("%s", line + 4); fflush(stdout); }
        else { fprintf(stderr, "vm-uhid: cannot read: %s", line); return 2; }
    }
    return 0;
}
