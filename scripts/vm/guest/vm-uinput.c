/* vm-uinput: creates uinput devices in the end-to-end guest and plays scripted input.
 *
 *   vm-uinput SCRIPT      (one command per line; '#' starts a comment)
 *
 *   create touchscreen|touchpad NAME   create the device (4095x2559 @16/mm, or 1000x600 @10/mm)
 *   create keyboard NAME               a keyboard with media keys (letters, digits, Enter, Esc, arrows,
 *                                      play/pause, next, previous, volume)
 *   create accelerometer NAME          an accelerometer (INPUT_PROP_ACCELEROMETER), +-4 g at 256/g
 *   key CODE 1|0                       a key down or up (kernel code, e.g. 28 for KEY_ENTER), then SYN_REPORT
 *   accel X Y Z                        one accelerometer sample (device units), then SYN_REPORT
 *   shake N MS                         N samples MS apart swinging +-2 g along x (gravity on z)
 *   still N MS                         N samples MS apart at rest (gravity on z)
 *   skew A B C D E F                   from now on, report every position through the affine map
 *                                      x' = A*x + B*y + C, y' = D*x + E*y + F in normalised units (0..1 over
 *                                      the axes): a panel whose touches land off where they were meant
 *   down SLOT ID X Y                   a finger lands in SLOT with tracking id ID at X,Y (device units)
 *   move SLOT X Y
 *   up SLOT
 *   sync                               SYN_REPORT (BTN_TOUCH / BTN_TOOL_* follow the fingers down)
 *   sleep MS
 *   destroy                            unplug the device
 *   flood SLOT N X0 Y0 X1 Y1           N frames moving SLOT from X0,Y0 to X1,Y1 as fast as possible
 *                                      (to overflow a stopped reader's buffer: SYN_DROPPED)
 *   wait PATH                          wait until the file PATH exists (the job's "go")
 *   mark PATH                          create the file PATH (tell the job a step is done)
 *   say TEXT                           print TEXT (to order the job's log)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int fd = -1;
static int touchpad;
static int down[16];
static int width = 4095, height = 2559;
static double skew[6] = {1, 0, 0, 0, 1, 0};

static void die(const char *what) { perror(what); exit(1); }

static void emit(int type, int code, int value) {
    struct input_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type; ev.code = code; ev.value = value;
    if (write(fd, &ev, sizeof ev) != sizeof ev) die("write");
}

static void abs_setup(int code, int min, int max, int res) {
    struct uinput_abs_setup a;
    memset(&a, 0, sizeof a);
    a.code = code; a.absinfo.minimum = min; a.absinfo.maximum = max; a.absinfo.resolution = res;
    if (ioctl(fd, UI_SET_ABSBIT, code) < 0 || ioctl(fd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP");
}

static void finish_create(const char *kind, const char *name, int product) {
    struct uinput_setup s;
    memset(&s, 0, sizeof s);
    s.id.bustype = BUS_USB; s.id.vendor = 0x1234; s.id.product = product; s.id.version = 1;
    snprintf(s.name, sizeof s.name, "%s", name);
    if (ioctl(fd, UI_DEV_SETUP, &s) < 0) die("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");
    char sys[64] = {0};
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sys), sys) >= 0) {
        char path[128];
        snprintf(path, sizeof path, "/sys/class/input/%s", sys);
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) if (strncmp(e->d_name, "event", 5) == 0) printf("created %s /dev/input/%s\n", kind, e->d_name);
        if (d) closedir(d);
    }
    fflush(stdout);
}

static void create_keyboard(const char *name) {
    touchpad = 0;
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) die("/dev/uinput");
    ioctl(fd, UI_SET_EVBIT, EV_SYN); ioctl(fd, UI_SET_EVBIT, EV_KEY);
    for (int k = KEY_ESC; k <= KEY_KPDOT; k++) ioctl(fd, UI_SET_KEYBIT, k);
    int extra[] = {KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT, KEY_MUTE, KEY_VOLUMEDOWN, KEY_VOLUMEUP, KEY_PLAYPAUSE,
                   KEY_NEXTSONG, KEY_PREVIOUSSONG, KEY_STOPCD, KEY_FASTFORWARD, KEY_REWIND};
    for (unsigned i = 0; i < sizeof extra / sizeof extra[0]; i++) ioctl(fd, UI_SET_KEYBIT, extra[i]);
    finish_create("keyboard", name, 3);
}

static void create_accelerometer(const char *name) {
    touchpad = 0;
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) die("/dev/uinput");
    ioctl(fd, UI_SET_EVBIT, EV_SYN); ioctl(fd, UI_SET_EVBIT, EV_ABS);
    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_ACCELEROMETER);
    abs_setup(ABS_X, -1024, 1024, 256); abs_setup(ABS_Y, -1024, 1024, 256); abs_setup(ABS_Z, -1024, 1024, 256);
    finish_create("accelerometer", name, 4);
}

/* A position as the (skewed) panel reports it, within its axes. */
static void skewed(int *x, int *y) {
    double nx = (double)*x / width, ny = (double)*y / height;
    double rx = skew[0] * nx + skew[1] * ny + skew[2], ry = skew[3] * nx + skew[4] * ny + skew[5];
    int px = (int)(rx * width + 0.5), py = (int)(ry * height + 0.5);
    *x = px < 0 ? 0 : px > width ? width : px;
    *y = py < 0 ? 0 : py > height ? height : py;
}

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void sample(int x, int y, int z) {
    emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y); emit(EV_ABS, ABS_Z, z); emit(EV_SYN, SYN_REPORT, 0);
}

static void create(const char *kind, const char *name) {
    if (!strcmp(kind, "keyboard")) { create_keyboard(name); return; }
    if (!strcmp(kind, "accelerometer")) { create_accelerometer(name); return; }
    touchpad = strcmp(kind, "touchpad") == 0;
    fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) die("/dev/uinput");
    ioctl(fd, UI_SET_EVBIT, EV_SYN); ioctl(fd, UI_SET_EVBIT, EV_KEY); ioctl(fd, UI_SET_EVBIT, EV_ABS);
    ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH);
    int w = touchpad ? 1000 : 4095, h = touchpad ? 600 : 2559, res = touchpad ? 10 : 16;
    width = w; height = h;
    if (touchpad) {
        ioctl(fd, UI_SET_KEYBIT, BTN_LEFT); ioctl(fd, UI_SET_KEYBIT, BTN_TOOL_FINGER);
        ioctl(fd, UI_SET_KEYBIT, BTN_TOOL_DOUBLETAP);
        ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_POINTER); ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_BUTTONPAD);
    } else {
        ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
    }
    abs_setup(ABS_X, 0, w, res); abs_setup(ABS_Y, 0, h, res);
    abs_setup(ABS_MT_SLOT, 0, 9, 0);
    abs_setup(ABS_MT_POSITION_X, 0, w, res); abs_setup(ABS_MT_POSITION_Y, 0, h, res);
    abs_setup(ABS_MT_TRACKING_ID, 0, 65535, 0);
    abs_setup(ABS_MT_PRESSURE, 0, 255, 0);
    finish_create(kind, name, touchpad ? 2 : 1);
    memset(down, 0, sizeof down);
}

static void sync_frame(void) {
    int n = 0;
    for (int i = 0; i < 16; i++) n += down[i];
    emit(EV_KEY, BTN_TOUCH, n > 0);
    if (touchpad) { emit(EV_KEY, BTN_TOOL_FINGER, n == 1); emit(EV_KEY, BTN_TOOL_DOUBLETAP, n == 2); }
    emit(EV_SYN, SYN_REPORT, 0);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: vm-uinput SCRIPT\n"); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) die(argv[1]);
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char cmd[32] = {0}, a[64] = {0}, b[128] = {0};
        int s, id, x, y, ms, n, x1, y1;
        if (line[0] == '#' || sscanf(line, "%31s", cmd) != 1) continue;
        if (!strcmp(cmd, "create") && sscanf(line, "%*s %63s %127[^\n]", a, b) == 2) create(a, b);
        else if (!strcmp(cmd, "skew") && sscanf(line, "%*s %lf %lf %lf %lf %lf %lf", &skew[0], &skew[1], &skew[2], &skew[3], &skew[4], &skew[5]) == 6) {
            /* Read: the positions that follow are skewed. */
        } else if (!strcmp(cmd, "down") && sscanf(line, "%*s %d %d %d %d", &s, &id, &x, &y) == 4) {
            skewed(&x, &y);
            emit(EV_ABS, ABS_MT_SLOT, s); emit(EV_ABS, ABS_MT_TRACKING_ID, id);
            emit(EV_ABS, ABS_MT_POSITION_X, x); emit(EV_ABS, ABS_MT_POSITION_Y, y); emit(EV_ABS, ABS_MT_PRESSURE, 60);
            emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y);
            down[s] = 1;
        } else if (!strcmp(cmd, "move") && sscanf(line, "%*s %d %d %d", &s, &x, &y) == 3) {
            skewed(&x, &y);
            emit(EV_ABS, ABS_MT_SLOT, s); emit(EV_ABS, ABS_MT_POSITION_X, x); emit(EV_ABS, ABS_MT_POSITION_Y, y);
            emit(EV_ABS, ABS_X, x); emit(EV_ABS, ABS_Y, y);
        } else if (!strcmp(cmd, "up") && sscanf(line, "%*s %d", &s) == 1) {
            emit(EV_ABS, ABS_MT_SLOT, s); emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
            down[s] = 0;
        } else if (!strcmp(cmd, "sync")) sync_frame();
        else if (!strcmp(cmd, "key") && sscanf(line, "%*s %d %d", &s, &n) == 2) {
            emit(EV_KEY, s, n); emit(EV_SYN, SYN_REPORT, 0);
        } else if (!strcmp(cmd, "accel") && sscanf(line, "%*s %d %d %d", &x, &y, &n) == 3) sample(x, y, n);
        else if (!strcmp(cmd, "shake") && sscanf(line, "%*s %d %d", &n, &ms) == 2) {
            for (int i = 0; i < n; i++) { sample(i % 2 ? -512 : 512, 0, 256); sleep_ms(ms); }
        } else if (!strcmp(cmd, "still") && sscanf(line, "%*s %d %d", &n, &ms) == 2) {
            for (int i = 0; i < n; i++) { sample(0, 0, 256); sleep_ms(ms); }
        }
        else if (!strcmp(cmd, "flood") && sscanf(line, "%*s %d %d %d %d %d %d", &s, &n, &x, &y, &x1, &y1) == 6) {
            for (int i = 1; i <= n; i++) {
                int px = x + (int)((long)(x1 - x) * i / n), py = y + (int)((long)(y1 - y) * i / n);
                emit(EV_ABS, ABS_MT_SLOT, s); emit(EV_ABS, ABS_MT_POSITION_X, px); emit(EV_ABS, ABS_MT_POSITION_Y, py);
                emit(EV_ABS, ABS_X, px); emit(EV_ABS, ABS_Y, py);
                sync_frame();
            }
        } else if (!strcmp(cmd, "mark") && sscanf(line, "%*s %63s", a) == 1) {
            int m = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (m < 0) die(a);
            close(m);
        }
        else if (!strcmp(cmd, "sleep") && sscanf(line, "%*s %d", &ms) == 1) sleep_ms(ms);
        else if (!strcmp(cmd, "destroy")) {
            ioctl(fd, UI_DEV_DESTROY); close(fd); fd = -1;
            printf("destroyed\n"); fflush(stdout);
        } else if (!strcmp(cmd, "wait") && sscanf(line, "%*s %63s", a) == 1) {
            while (access(a, F_OK) != 0) usleep(20000);
        } else if (!strcmp(cmd, "say")) { printf("%s", line + 4); fflush(stdout); }
        else { fprintf(stderr, "vm-uinput: cannot read: %s", line); return 2; }
    }
    return 0;
}
