/*
 * The vault benchmark's floor in C: what floor-server.py does (bench/README.md, "The vault
 * benchmark"), with nothing of an interpreter in the way, so that what is left of a read is the
 * pipe round trips and the client's own parsing. It answers the `initialize` era (2025-11-25):
 * `tools/list`, `list_notes` (pages of 500 paths in byte order, which is code-point order, with a
 * cursor that is the next index) and `read_note` (the note whole up to the page size, else a page
 * that ends on a character boundary, with `offset`, `totalBytes` and `nextOffset`). It checks
 * nothing and trusts its client: a benchmark baseline, never a server for anything else.
 *
 * The listing is one walk of the vault on the first `list_notes`: every `*.md` not under a folder
 * or name starting with '.', and none whose name holds a combining mark (U+0300 to U+036F), which
 * is how the benchmark vault's one name that is not NFC is written; floor-server.py asks
 * unicodedata instead.
 *
 * Build and run: cc -O2 -o floor-server floor-server.c && ./floor-server VAULT [PAGE_BYTES]
 * (PAGE_BYTES: 16384; 0 sends every note whole).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A growing byte buffer. */
typedef struct {
  char *bytes;
  size_t length, capacity;
} Buffer;

static void reserve(Buffer *b, size_t more) {
  if (b->length + more > b->capacity) {
    b->capacity = (b->length + more) * 2;
    b->bytes = realloc(b->bytes, b->capacity);
    if (b->bytes == NULL) {
      abort();
    }
  }
}

static void put(Buffer *b, const char *bytes, size_t length) {
  reserve(b, length);
  memcpy(b->bytes + b->length, bytes, length);
  b->length += length;
}

static void puts_(Buffer *b, const char *text) { put(b, text, strlen(text)); }

/* Appends bytes as the inside of a JSON string. */
static void escape(Buffer *b, const char *bytes, size_t length) {
  static const char hex[] = "0123456789abcdef";
  reserve(b, length * 6);
  char *out = b->bytes + b->length;
  for (size_t i = 0; i < length; i++) {
    unsigned char c = (unsigned char)bytes[i];
    if (c == '"' || c == '\\') {
      *out++ = '\\';
      *out++ = (char)c;
    } else if (c == '\n') {
      *out++ = '\\';
      *out++ = 'n';
    } else if (c == '\t') {
      *out++ = '\\';
      *out++ = 't';
    } else if (c == '\r') {
      *out++ = '\\';
      *out++ = 'r';
    } else if (c < 0x20) {
      memcpy(out, "\\u00", 4);
      out[4] = hex[c >> 4];
      out[5] = hex[c & 15];
      out += 6;
    } else {
      *out++ = (char)c;
    }
  }
  b->length = (size_t)(out - b->bytes);
}

/* The JSON string value after `"key":` in line, decoded into out (\uXXXX only below U+0800). */
static int string_member(const char *line, const char *key, Buffer *out) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
  const char *p = strstr(line, pattern);
  if (p == NULL) {
    return 0;
  }
  out->length = 0;
  for (p += strlen(pattern); *p && *p != '"'; p++) {
    char c = *p;
    if (c == '\\') {
      c = *++p;
      if (c == 'u') {
        unsigned v = (unsigned)strtoul((char[]){p[1], p[2], p[3], p[4], 0}, NULL, 16);
        p += 4;
        char utf8[2];
        if (v < 0x80) {
          put(out, (char[]){(char)v}, 1);
        } else {
          utf8[0] = (char)(0xc0 | (v >> 6));
          utf8[1] = (char)(0x80 | (v & 0x3f));
          put(out, utf8, 2);
        }
        continue;
      }
      c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
    }
    put(out, &c, 1);
  }
  put(out, "", 1);
  out->length--;
  return 1;
}

static long number_member(const char *line, const char *key, long otherwise) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":", key);
  const char *p = strstr(line, pattern);
  return p == NULL ? otherwise : strtol(p + strlen(pattern), NULL, 10);
}

static char **notes;
static size_t note_count, note_capacity;

static int by_bytes(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_combining_mark(const char *name) {
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    if ((p[0] == 0xcc && p[1] >= 0x80) || (p[0] == 0xcd && p[1] <= 0xaf)) {
      return 1;
    }
  }
  return 0;
}

static void walk(const char *root, const char *folder) {
  char path[4096];
  snprintf(path, sizeof path, "%s%s%s", root, *folder ? "/" : "", folder);
  DIR *dir = opendir(path);
  if (dir == NULL) {
    return;
  }
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    const char *name = entry->d_name;
    if (name[0] == '.' || has_combining_mark(name)) {
      continue;
    }
    char child[4096];
    snprintf(child, sizeof child, "%s%s%s", folder, *folder ? "/" : "", name);
    if (entry->d_type == DT_DIR) {
      walk(root, child);
    } else if (entry->d_type == DT_REG && strlen(name) > 3
               && strcmp(name + strlen(name) - 3, ".md") == 0) {
      if (note_count == note_capacity) {
        note_capacity = note_capacity ? note_capacity * 2 : 1024;
        notes = realloc(notes, note_capacity * sizeof *notes);
      }
      notes[note_count++] = strdup(child);
    }
  }
  closedir(dir);
}

static const char TOOLS[] =
    "{\"tools\":[{\"name\":\"list_notes\",\"description\":\"List the notes, 500 a page.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"cursor\":{\"type\":\"string\"}}}},"
    "{\"name\":\"read_note\",\"description\":\"Read one note, whole or a page from an offset.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
    "\"offset\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"path\"]}}]}";

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: floor-server VAULT [PAGE_BYTES]\n");
    return 2;
  }
  const char *root = argv[1];
  long page_bytes = argc > 2 ? atol(argv[2]) : 16384;
  int walked = 0;
  Buffer reply = {0}, inner = {0}, path = {0}, file = {0};
  char *line = NULL;
  size_t line_capacity = 0;
  while (getline(&line, &line_capacity, stdin) > 0) {
    const char *id = strstr(line, "\"id\":");
    if (id == NULL) {
      continue; /* a notification */
    }
    id += 5;
    size_t id_length = strcspn(id, ",}");
    reply.length = 0;
    puts_(&reply, "{\"jsonrpc\":\"2.0\",\"id\":");
    put(&reply, id, id_length);
    puts_(&reply, ",\"result\":");
    if (strstr(line, "\"method\":\"initialize\"")) {
      puts_(&reply, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                    "\"serverInfo\":{\"name\":\"floor-c\",\"version\":\"0.1.0\"}}");
    } else if (strstr(line, "\"method\":\"tools/list\"")) {
      puts_(&reply, TOOLS);
    } else if (strstr(line, "\"name\":\"list_notes\"")) {
      if (!walked) {
        walk(root, "");
        qsort(notes, note_count, sizeof *notes, by_bytes);
        walked = 1;
      }
      size_t start = 0;
      if (string_member(line, "cursor", &path)) {
        start = (size_t)atol(path.bytes);
      }
      size_t end = start + 500 < note_count ? start + 500 : note_count;
      inner.length = 0;
      puts_(&inner, "{\"notes\":[");
      for (size_t i = start; i < end; i++) {
        puts_(&inner, i > start ? ",\"" : "\"");
        escape(&inner, notes[i], strlen(notes[i]));
        puts_(&inner, "\"");
      }
      puts_(&inner, "]");
      if (end < note_count) {
        char cursor[64];
        snprintf(cursor, sizeof cursor, ",\"nextCursor\":\"%zu\"", end);
        puts_(&inner, cursor);
      }
      puts_(&inner, "}");
      puts_(&reply, "{\"content\":[{\"type\":\"text\",\"text\":\"");
      escape(&reply, inner.bytes, inner.length);
      puts_(&reply, "\"}]}");
    } else if (string_member(line, "path", &path)) {
      long offset = number_member(line, "offset", 0);
      char full[4096];
      snprintf(full, sizeof full, "%s/%s", root, path.bytes);
      int fd = open(full, O_RDONLY | O_CLOEXEC);
      struct stat st;
      if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "floor-server: cannot read %s\n", full);
        return 1;
      }
      file.length = 0;
      reserve(&file, (size_t)st.st_size);
      ssize_t got;
      while ((got = read(fd, file.bytes + file.length, (size_t)st.st_size - file.length)) > 0) {
        file.length += (size_t)got;
      }
      close(fd);
      inner.length = 0;
      puts_(&inner, "{\"path\":\"");
      escape(&inner, path.bytes, path.length);
      puts_(&inner, "\",\"content\":\"");
      if (page_bytes == 0 || (long)file.length <= page_bytes) {
        escape(&inner, file.bytes, file.length);
        puts_(&inner, "\"}");
      } else {
        long end = offset + page_bytes < (long)file.length ? offset + page_bytes : (long)file.length;
        while (end < (long)file.length && (file.bytes[end] & 0xc0) == 0x80) {
          end--; /* back to the start of the character the page would cut */
        }
        escape(&inner, file.bytes + offset, (size_t)(end - offset));
        char tail[128];
        if (end < (long)file.length) {
          snprintf(tail, sizeof tail, "\",\"offset\":%ld,\"totalBytes\":%zu,\"nextOffset\":%ld}",
                   offset, file.length, end);
        } else {
          snprintf(tail, sizeof tail, "\",\"offset\":%ld,\"totalBytes\":%zu,\"nextOffset\":null}",
                   offset, file.length);
        }
        puts_(&inner, tail);
      }
      puts_(&reply, "{\"content\":[{\"type\":\"text\",\"text\":\"");
      escape(&reply, inner.bytes, inner.length);
      puts_(&reply, "\"}]}");
    } else {
      puts_(&reply, "{}");
    }
    puts_(&reply, "}\n");
    for (size_t done = 0; done < reply.length;) {
      ssize_t wrote = write(1, reply.bytes + done, reply.length - done);
      if (wrote <= 0) {
        return 1;
      }
      done += (size_t)wrote;
    }
  }
  return 0;
}
