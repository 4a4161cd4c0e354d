# Puts Node.js 24 first on PATH when the machine's node is older (this project's machines ship 20).
#   source scripts/use-node24.sh        # then npm install, npm start, npm test as usual
# Node 24 comes from the npm registry's node-linux-<arch> package (the official binary and its
# headers), installed once outside the repository in $TALLY_NODE_HOME (default ~/.cache/tally-node).
# npm_config_nodedir points native builds (better-sqlite3, argon2) at those headers.
# TALLY_NODE_MAJOR=26 brings that major instead (the package stage starts the release on it once).
tally_use_node() {
  local major="${1:-24}" arch home dir current
  current=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$current" -ge "$major" ] && [ "$major" = 24 ]; then return 0; fi
  case "$(uname -m)" in
    x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "use-node24: no Node $major build for $(uname -m)" >&2; return 1 ;;
  esac
  home="${TALLY_NODE_HOME:-$HOME/.cache/tally-node}"
  dir="$home/$major/node_modules/node-linux-$arch"
  if [ ! -x "$dir/bin/node" ]; then
    echo "Installing Node.js $major from the npm registry into $home/$major..." >&2
    mkdir -p "$home/$major"
    npm install --prefix "$home/$major" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-$arch@$major" >&2 || { echo "use-node24: could not install Node.js $major" >&2; return 1; }
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r
}
tally_use_node "${TALLY_NODE_MAJOR:-24}"
