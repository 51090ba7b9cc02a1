#ifndef STOREFRONT_CNCURSESW_SHIM_H
#define STOREFRONT_CNCURSESW_SHIM_H
/* The wide-character API is only declared with this switch; SwiftPM drops pkg-config's -D flags. */
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <wchar.h>
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <sys/ioctl.h>

/* glibc hides these without _XOPEN_SOURCE, which cannot reach the Glibc module. */
extern int wcwidth(wchar_t c);
extern int wcswidth(const wchar_t *s, size_t n);

/* Macros Swift cannot import. */
static const attr_t SF_A_NORMAL = A_NORMAL;
static const attr_t SF_A_BOLD = A_BOLD;
static const attr_t SF_A_REVERSE = A_REVERSE;
static const attr_t SF_A_UNDERLINE = A_UNDERLINE;
static const attr_t SF_A_DIM = A_DIM;
static const mmask_t SF_BUTTON1_PRESSED = BUTTON1_PRESSED;
static const mmask_t SF_BUTTON1_RELEASED = BUTTON1_RELEASED;
static const mmask_t SF_BUTTON1_CLICKED = BUTTON1_CLICKED;
static const mmask_t SF_BUTTON1_DOUBLE_CLICKED = BUTTON1_DOUBLE_CLICKED;
static const mmask_t SF_BUTTON1_TRIPLE_CLICKED = BUTTON1_TRIPLE_CLICKED;
static const mmask_t SF_BUTTON4_PRESSED = BUTTON4_PRESSED;
static const mmask_t SF_BUTTON5_PRESSED = BUTTON5_PRESSED;

static inline int sf_KEY_F(int n) { return KEY_F(n); }
static inline attr_t sf_COLOR_PAIR(int n) { return (attr_t)COLOR_PAIR(n); }
/* Swift 6 rejects the mutable globals stdscr/LINES/COLS; keep newterm's window instead where possible. */
static inline WINDOW *sf_stdscr(void) { return stdscr; }
static inline int sf_get_winsize(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row; *cols = ws.ws_col; return 0;
}
#endif
