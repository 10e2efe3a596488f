// Non-variadic wrappers around libedit's variadic el_set/history calls,
// which Swift cannot call directly.
#ifndef UTQ_CLINEEDIT_SHIM_H
#define UTQ_CLINEEDIT_SHIM_H

#include <stdio.h>
#include <histedit.h>

typedef char *(*utq_prompt_fn)(EditLine *);
typedef unsigned char (*utq_command_fn)(EditLine *, int);

static inline int utq_el_set_prompt(EditLine *el, utq_prompt_fn fn) {
    return el_set(el, EL_PROMPT, fn);
}
static inline int utq_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}
static inline int utq_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}
static inline int utq_el_add_function(EditLine *el, const char *name, const char *help, utq_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int utq_el_bind(EditLine *el, const char *key, const char *command) {
    return el_set(el, EL_BIND, key, command, NULL);
}
static inline int utq_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}
static inline int utq_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}
static inline void *utq_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
static inline int utq_el_set_refresh(EditLine *el) {
    return el_set(el, EL_REFRESH);
}

/* The terminal's width as libedit sees it (it wraps the line there). */
static inline int utq_el_columns(EditLine *el) {
    int n = 0;
    if (el_get(el, EL_GETTC, "co", &n) != 0) return 0;
    return n;
}

static inline int utq_history_setsize(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}
static inline int utq_history_setunique(History *h, int unique) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, unique);
}
static inline int utq_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}
static inline int utq_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}
static inline int utq_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}
static inline int utq_history_getsize(History *h) {
    HistEvent ev;
    if (history(h, &ev, H_GETSIZE) < 0) return -1;
    return ev.num;
}
static inline int utq_history_clear(History *h) {
    HistEvent ev;
    return history(h, &ev, H_CLEAR);
}

/* The newest line, then older ones: NULL past the oldest. */
static inline const char *utq_history_first(History *h) {
    HistEvent ev;
    if (history(h, &ev, H_FIRST) < 0) return NULL;
    return ev.str;
}
static inline const char *utq_history_next(History *h) {
    HistEvent ev;
    if (history(h, &ev, H_NEXT) < 0) return NULL;
    return ev.str;
}

#endif
