# Doxygen's INPUT_FILTER for Jet's public headers (docs/Doxyfile). Doxygen reads only comments
# that start with ///, and the headers write their documentation as plain // comments: the file's
# summary at the top, a one-line summary above each declaration, `// ---- Heading` above a section
# of declarations. This filter hands those comments to Doxygen as it reads each header:
#   - the comment at the top of a file, and any comment followed by a blank line at namespace
#     scope, document the file;
#   - a `// ---- Heading` comment opens a named group of the declarations up to the next heading
#     or the end of the namespace (a heading directly above declarations: up to a blank line),
#     its first sentence the group's name; a comment above a macro call that declares members
#     (JET_REDUCTION_MEMBERS) names the group of those members;
#   - a comment directly above a declaration at namespace or class scope documents it;
#   - a comment after a member or enumerator on its line documents that member (///<), and a lint
#     remark (NOLINT) keeps only its text;
#   - lines indented past the comment's text are code;
#   - other comments stay plain: those in function bodies and above preprocessor lines, access
#     labels or closing braces.
# Outside `code spans` and "quotes", characters Doxygen or Markdown would read as commands
# (# % < @ \) are escaped. No line is added or removed, so Doxygen's warnings name the header's
# own lines.

# `text` with Doxygen's command characters escaped outside code spans and "quoted text" (which
# Doxygen shows as written).
function escape(text,    pieces, n, i, out) {
  n = split(text, pieces, "`")
  out = ""
  for (i = 1; i <= n; i++) {
    if (i % 2 == 1) pieces[i] = escape_unquoted(pieces[i])
    out = out (i > 1 ? "`" : "") pieces[i]
  }
  return out
}

# The same for text outside code spans.
function escape_unquoted(text,    pieces, n, i, out) {
  n = split(text, pieces, "\"")
  out = ""
  for (i = 1; i <= n; i++) {
    if (i % 2 == 1) gsub(/[\\#%<@]/, "\\\\&", pieces[i])
    out = out (i > 1 ? "\"" : "") pieces[i]
  }
  return out
}

# The code of a line without its strings, character literals and comment, for counting braces.
function code_only(line) {
  gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
  gsub(/'([^'\\]|\\.)*'/, "''", line)
  sub(/\/\/.*/, "", line)
  return line
}

# Opens and closes the scopes a line's braces open and close. The first brace of a line that
# starts a namespace, class, struct, enum or union opens a declaration scope; any other brace
# opens a body (a function's, an initializer's), inside which no comment is documentation.
function count_braces(line,    code, i, c, opens_declaration) {
  code = code_only(line)
  opens_declaration = code ~ /^[ \t]*((inline[ \t]+)?namespace|(template[ \t]*<.*>[ \t]*)?(class|struct|enum|union))([ \t{]|$)/
  for (i = 1; i <= length(code); i++) {
    c = substr(code, i, 1)
    if (c == "{") {
      depth++
      is_body[depth] = !opens_declaration
      bodies += is_body[depth]
      opens_declaration = 0
    } else if (c == "}" && depth > 0) {
      bodies -= is_body[depth]
      depth--
    }
  }
}

# The text of a comment line, after its `//`.
function comment_text(line) {
  match(line, /^[ \t]*\/\//)
  return substr(line, RLENGTH + 1)
}

# A comment line as documentation: its text escaped, or its indented lines as code.
function documentation(line,    lead, text) {
  match(line, /^[ \t]*\/\//)
  lead = substr(line, 1, RLENGTH - 2)
  text = substr(line, RLENGTH + 1)
  if (text ~ /^   +[^ ]/) {
    sub(/^   /, "", text)
    if (!in_code) text = "@code{.cpp} " text
    in_code = 1
    return lead "///" text
  }
  text = escape(text)
  if (in_code) text = "@endcode" text
  in_code = 0
  return lead "///" text
}

# Line `i` of a held comment as a C comment naming a member group, of a `// ---- Heading`
# ("section") or of the declarations a macro call makes ("macro"): the comment's first sentence
# is the name (a one-line comment's whole line), the rest the group's description, and the group
# opens after the comment.
function section_line(i, kind,    text, lead, title, rest, line) {
  match(hold[i], /^[ \t]*\/\//)
  lead = substr(hold[i], 1, RLENGTH - 2)
  text = comment_text(hold[i])
  if (i == 1) {
    sub(/^ *(---- *)?/, "", text)
    title = text
    rest = ""
    if (held > 1 && match(text, /\. /)) {
      title = substr(text, 1, RSTART)
      rest = substr(text, RSTART + 2)
    }
    sub(/\.$/, "", title)
    gsub(/`/, "", title)
    # The comment's second sentence starts the next line, so that lines stay put.
    if (rest != "") hold[2] = lead "// " rest comment_text(hold[2])
    if (kind == "macro") {
      line = lead "/** @name " escape(title)
      macro_group_open = 1
    } else {
      line = lead (group_open ? "/** @} */ " : "") "/** @name " escape(title)
      group_open = 1
      group_depth = depth
      # A heading directly above declarations names those alone: its group ends at a blank line.
      group_until_blank = $0 !~ /^[ \t]*$/
    }
  } else {
    line = lead " * " escape(text)
  }
  if (i == held) line = line " */ /** @{ */"
  return line
}

# Writes the comment lines held back as `kind`: "plain", "member" (documents the declaration
# below), "file" (documents the file), "section" or "macro" (names a group, see above).
function flush(kind,    i, line) {
  for (i = 1; i <= held; i++) {
    if (kind == "plain") {
      print hold[i]
      continue
    }
    if (kind == "section" || kind == "macro") {
      print section_line(i, kind)
      continue
    }
    line = documentation(hold[i])
    if (i == held) {
      if (in_code) line = line " @endcode"
      if (kind == "file") line = line " @file"
      in_code = 0
    }
    print line
  }
  held = 0
}

# Whether `line` is a macro call alone (JET_REDUCTION_MEMBERS), which declares what it expands to.
function macro_call(line) {
  return line ~ /^[ \t]*[A-Z][A-Z0-9_]*(\(.*\))?[ \t]*$/
}

# Whether a comment directly above `line` documents it: a declaration in a declaration scope,
# not a preprocessor line, an access label, a closing brace or a macro call.
function documented(line) {
  if (bodies > 0) return 0
  if (line ~ /^[ \t]*$/) return 0
  if (line ~ /^[ \t]*(#|}|public:|protected:|private:)/) return 0
  if (macro_call(line)) return 0
  return 1
}

# What the comments held back above `line` are.
function kind_of_held(line) {
  if (top) return "file"
  if (bodies == 0 && hold[1] ~ /^[ \t]*\/\/ ---- /) return "section"
  # Member groups do not nest: a macro's group only where no section's is open.
  if (bodies == 0 && macro_call(line) && !(group_open && depth == group_depth)) return "macro"
  if (documented(line)) return "member"
  if (bodies == 0 && line ~ /^[ \t]*$/) return "file"
  return "plain"
}

# A comment after code on its line: documentation of that member (///<) where the line is a
# declaration at declaration scope; lint remarks (NOLINT) keep only their text for readers.
function trailing(line,    at, code, text) {
  at = index(line, "  //")
  if (at == 0) return line
  code = substr(line, 1, at - 1)
  if (gsub(/"/, "\"", code) % 2 == 1 || code ~ /^[ \t]*[#}]/) return line
  text = substr(line, at + 4)
  if (text ~ /^ ?NOLINT/) {
    sub(/^ ?NOLINT(\([^)]*\))?:? ?/, "", text)
    if (text == "") return code
    text = " " text
  }
  if (bodies > 0) return code "  //" text
  return code "  ///<" escape(text)
}

BEGIN {
  depth = 0; bodies = 0; held = 0; in_code = 0; top = 1; continued = 0
  hiding = 0; group_open = 0; macro_group_open = 0; specialization = ""
}

# Writes the `template <>` line held back above `line`, hiding what follows when `line` begins
# a specialization of another library's template (jet/fmt.hpp's fmt::formatter): Doxygen has not
# seen that library's scope and reports it as an error. The definition is left out up to its end.
function finish_specialization(line) {
  if (line ~ /^[ \t]*(struct|class)[ \t]+[A-Za-z_][A-Za-z0-9_]*::/ &&
      line !~ /(struct|class)[ \t]+jet::/) {
    specialization = "/** @cond */ " specialization
    hiding = 1
    hidden_depth = depth
  }
  print specialization
  specialization = ""
}

{
  if (specialization != "") finish_specialization($0)
  if ($0 ~ /^[ \t]*\/\// && !continued) {
    hold[++held] = $0
    next
  }
  if (held > 0) flush(kind_of_held($0))
  top = 0
  if (continued || $0 ~ /^[ \t]*#/) {
    # Preprocessor lines (with their continuations) hold no documentation and open no scope.
    continued = $0 ~ /\\$/
    print
    next
  }
  if (bodies == 0 && $0 ~ /^[ \t]*template[ \t]*<>[ \t]*$/) {
    specialization = $0
    next
  }
  line = trailing($0)
  count_braces(line)
  if (hiding == 1 && depth > hidden_depth) hiding = 2
  if (hiding == 2 && depth == hidden_depth) {
    line = line " /** @endcond */"
    hiding = 0
  }
  if (macro_group_open) {
    line = line " /** @} */"
    macro_group_open = 0
  }
  prefix = ""
  if (group_open && (depth < group_depth || (group_until_blank && line ~ /^[ \t]*$/))) {
    prefix = "/** @} */ "
    group_open = 0
  }
  print prefix line
}

END {
  if (specialization != "") print specialization
  if (held > 0) flush("plain")
}
