//===- ProfileDb.cpp - The profile database (SQLite) ----------------------===//
///
/// \file
/// The profile database: schema creation and checks, RAII statements and
/// transactions over the sqlite3 C API, recording and queries.
///
//===----------------------------------------------------------------------===//

#include "ProfileDb.h"

#include <sqlite3.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

using namespace klaraptor::profiledb;

namespace {

/// Schema version 1. docs/profile-db.md documents every table and column.
const char *SchemaSql = R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE runs (
  id           INTEGER PRIMARY KEY,
  command_line TEXT NOT NULL,
  sizes        TEXT NOT NULL,
  start_time   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  end_time     TEXT,
  status       TEXT NOT NULL DEFAULT 'running'
);
CREATE TABLE kernels (
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  spec      TEXT NOT NULL,
  spec_hash TEXT NOT NULL,
  UNIQUE (name, spec_hash)
);
CREATE TABLE launches (
  id        INTEGER PRIMARY KEY,
  run_id    INTEGER NOT NULL REFERENCES runs(id),
  kernel_id INTEGER NOT NULL REFERENCES kernels(id),
  data      TEXT NOT NULL,
  grid_x    INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
  block_x   INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL
);
CREATE INDEX launches_kernel_data ON launches (kernel_id, data);
CREATE TABLE samples (
  id           INTEGER PRIMARY KEY,
  launch_id    INTEGER NOT NULL REFERENCES launches(id),
  block_x      INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL,
  grid_x       INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
  registers    INTEGER NOT NULL,
  shared_bytes INTEGER NOT NULL,
  time_ns      REAL NOT NULL,
  status       TEXT NOT NULL
);
CREATE INDEX samples_launch ON samples (launch_id);
CREATE TABLE metrics (
  sample_id INTEGER NOT NULL REFERENCES samples(id),
  key       TEXT NOT NULL,
  value     REAL NOT NULL,
  PRIMARY KEY (sample_id, key)
) WITHOUT ROWID;
PRAGMA user_version = 1;
)sql";

/// One prepared statement, finalized on scope exit.
class Stmt {
public:
  Stmt(sqlite3 *Db, const char *Sql) {
    Rc = sqlite3_prepare_v2(Db, Sql, -1, &S, nullptr);
  }
  ~Stmt() { sqlite3_finalize(S); }
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;
  bool ok() const { return Rc == SQLITE_OK && S; }
  Stmt &bind(int I, int64_t V) {
    sqlite3_bind_int64(S, I, V);
    return *this;
  }
  Stmt &bind(int I, double V) {
    sqlite3_bind_double(S, I, V);
    return *this;
  }
  Stmt &bind(int I, const std::string &V) {
    sqlite3_bind_text(S, I, V.data(), (int)V.size(), SQLITE_TRANSIENT);
    return *this;
  }
  /// SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return Rc = sqlite3_step(S); }
  int64_t i64(int C) { return sqlite3_column_int64(S, C); }
  double dbl(int C) { return sqlite3_column_double(S, C); }
  /// Whether column \p C holds a number (SQLite converts text and blobs
  /// to 0 silently).
  bool isNumber(int C) {
    int T = sqlite3_column_type(S, C);
    return T == SQLITE_INTEGER || T == SQLITE_FLOAT;
  }
  std::string text(int C) {
    const unsigned char *T = sqlite3_column_text(S, C);
    return T ? std::string(reinterpret_cast<const char *>(T)) : std::string();
  }
  void reset() {
    sqlite3_reset(S);
    sqlite3_clear_bindings(S);
  }

private:
  sqlite3_stmt *S = nullptr;
  int Rc;
};

/// BEGIN IMMEDIATE (takes the write lock at once, so two writers never
/// deadlock upgrading), rolled back on scope exit unless committed.
class Transaction {
public:
  explicit Transaction(sqlite3 *Db) : Db(Db) {
    Began = sqlite3_exec(Db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) ==
            SQLITE_OK;
  }
  ~Transaction() {
    if (Began && !Done)
      sqlite3_exec(Db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  bool began() const { return Began; }
  bool commit() {
    Done = sqlite3_exec(Db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
    return Done;
  }

private:
  sqlite3 *Db;
  bool Began = false;
  bool Done = false;
};

bool isIdentifier(const std::string &S) {
  if (S.empty() || !(std::isalpha((unsigned char)S[0]) || S[0] == '_'))
    return false;
  for (char C : S)
    if (!(std::isalnum((unsigned char)C) || C == '_'))
      return false;
  return true;
}

} // namespace

std::string klaraptor::profiledb::blockText(const uint32_t Block[3]) {
  return std::to_string(Block[0]) + "x" + std::to_string(Block[1]) + "x" +
         std::to_string(Block[2]);
}

klaraptor::profiledb::FailedShapes
klaraptor::profiledb::failedShapes(const std::vector<SampleRow> &Rows) {
  FailedShapes F;
  std::set<std::array<uint32_t, 3>> Blocks;
  for (const SampleRow &R : Rows)
    if (R.failedToRun()) {
      Blocks.insert({R.Block[0], R.Block[1], R.Block[2]});
      if (F.Samples++ == 0)
        F.First = R.Status;
    }
  F.Blocks.assign(Blocks.begin(), Blocks.end());
  return F;
}

std::string klaraptor::profiledb::FailedShapes::list() const {
  std::string S;
  for (const auto &B : Blocks)
    S += (S.empty() ? "" : ", ") + blockText(B.data());
  return S;
}

std::string klaraptor::profiledb::dataToJson(const DataTuple &Data) {
  std::string Out = "{";
  bool First = true;
  for (const auto &[Name, Value] : Data) {
    if (!First)
      Out += ',';
    First = false;
    Out += '"' + Name + "\":" + std::to_string(Value);
  }
  return Out + "}";
}

bool klaraptor::profiledb::dataFromJson(const std::string &Text,
                                        DataTuple &Data) {
  Data.clear();
  size_t I = 0, N = Text.size();
  if (I >= N || Text[I++] != '{')
    return false;
  if (I < N && Text[I] == '}')
    return I + 1 == N;
  while (I < N) {
    if (Text[I++] != '"')
      return false;
    size_t End = Text.find('"', I);
    if (End == std::string::npos)
      return false;
    std::string Name = Text.substr(I, End - I);
    I = End + 1;
    if (I >= N || Text[I++] != ':')
      return false;
    char *After = nullptr;
    long long V = std::strtoll(Text.c_str() + I, &After, 10);
    if (After == Text.c_str() + I)
      return false;
    I = After - Text.c_str();
    Data[Name] = V;
    if (I >= N)
      return false;
    char C = Text[I++];
    if (C == '}')
      return I == N;
    if (C != ',')
      return false;
  }
  return false;
}

/// FNV-1a 64 of \p N bytes, continuing from \p H (the offset basis to
/// start).
static uint64_t fnv1a64(uint64_t H, const unsigned char *P, size_t N) {
  for (size_t I = 0; I < N; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}
static constexpr uint64_t FnvOffsetBasis = 0xcbf29ce484222325ull;

std::string klaraptor::profiledb::specHash(const std::string &Text) {
  uint64_t H = fnv1a64(FnvOffsetBasis,
                       reinterpret_cast<const unsigned char *>(Text.data()),
                       Text.size());
  char Buf[17];
  std::snprintf(Buf, sizeof(Buf), "%016llx", (unsigned long long)H);
  return Buf;
}

std::string klaraptor::profiledb::fileIdentity(const std::string &Path,
                                               std::string &Error) {
  FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F) {
    Error = "cannot read '" + Path + "': " + std::strerror(errno);
    return "";
  }
  uint64_t H = FnvOffsetBasis, Size = 0;
  unsigned char Buf[1 << 16];
  size_t N;
  while ((N = std::fread(Buf, 1, sizeof(Buf), F)) > 0) {
    Size += N;
    H = fnv1a64(H, Buf, N);
  }
  bool Bad = std::ferror(F);
  std::fclose(F);
  if (Bad) {
    Error = "cannot read '" + Path + "'";
    return "";
  }
  char Out[64];
  std::snprintf(Out, sizeof(Out), "%llu bytes, fnv1a64 %016llx",
                (unsigned long long)Size, (unsigned long long)H);
  return Out;
}

ProfileDb::~ProfileDb() { sqlite3_close_v2(Db); }

std::string ProfileDb::fail(const std::string &What) const {
  return Path + ": " + What + ": " + sqlite3_errmsg(Db);
}

bool ProfileDb::exec(const char *Sql, std::string &Error) {
  char *Msg = nullptr;
  if (sqlite3_exec(Db, Sql, nullptr, nullptr, &Msg) == SQLITE_OK)
    return true;
  Error = Path + ": " + (Msg ? Msg : sqlite3_errmsg(Db));
  sqlite3_free(Msg);
  return false;
}

std::unique_ptr<ProfileDb> ProfileDb::open(const std::string &Path,
                                           const MetaInfo &Meta,
                                           std::string &Error,
                                           int BusyTimeoutMs) {
  sqlite3 *Raw = nullptr;
  int Rc = sqlite3_open_v2(Path.c_str(), &Raw,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                               SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (Rc != SQLITE_OK) {
    Error = Path + ": cannot open profile database: " +
            (Raw ? sqlite3_errmsg(Raw) : sqlite3_errstr(Rc));
    sqlite3_close_v2(Raw);
    return nullptr;
  }
  std::unique_ptr<ProfileDb> Db(new ProfileDb(Raw, Path));
  sqlite3_busy_timeout(Raw, BusyTimeoutMs);
  sqlite3_extended_result_codes(Raw, 1);

  // The first read: a file that is not SQLite fails here.
  auto readVersion = [&](int &Version, int64_t &Tables) {
    Stmt V(Raw, "PRAGMA user_version");
    if (!V.ok() || V.step() != SQLITE_ROW)
      return false;
    Version = (int)V.i64(0);
    Stmt T(Raw, "SELECT count(*) FROM sqlite_schema");
    if (!T.ok() || T.step() != SQLITE_ROW)
      return false;
    Tables = T.i64(0);
    return true;
  };
  int Version = 0;
  int64_t Tables = 0;
  if (!readVersion(Version, Tables)) {
    Error = Db->fail("not a readable profile database");
    return nullptr;
  }
  if (Version == 0) {
    // Create the schema under the write lock; another process may have
    // created it meanwhile, so read again inside the transaction.
    Transaction T(Raw);
    if (!T.began()) {
      Error = Db->fail("cannot create profile database");
      return nullptr;
    }
    if (!readVersion(Version, Tables)) {
      Error = Db->fail("not a readable profile database");
      return nullptr;
    }
    if (Version == 0 && Tables != 0) {
      Error = Path + ": not a klaraptor profile database (schema version 0 "
                     "with existing tables)";
      return nullptr;
    }
    if (Version == 0) {
      if (!Db->exec(SchemaSql, Error))
        return nullptr;
      Stmt Ins(Raw, "INSERT INTO meta (key, value) VALUES (?1, ?2)");
      std::vector<std::pair<std::string, std::string>> Rows = {
          {"schema_version", std::to_string(SchemaVersion)},
          {"klaraptor_version",
           Meta.KlaraptorVersion.empty() ? "unknown" : Meta.KlaraptorVersion},
          {"device", Meta.Device},
          {"backend", Meta.Backend}};
      for (const auto &[K, V] : Rows) {
        Ins.reset();
        Ins.bind(1, K).bind(2, V);
        if (Ins.step() != SQLITE_DONE) {
          Error = Db->fail("cannot write meta");
          return nullptr;
        }
      }
      if (!T.commit()) {
        Error = Db->fail("cannot create profile database");
        return nullptr;
      }
      Version = SchemaVersion;
    }
  }
  if (Version > SchemaVersion) {
    Error = Path + ": profile database schema version " +
            std::to_string(Version) + " is newer than this klaraptor supports (" +
            std::to_string(SchemaVersion) + ")";
    return nullptr;
  }
  if (Version < SchemaVersion) {
    Error = Path + ": profile database schema version " +
            std::to_string(Version) + " is not supported (no migration)";
    return nullptr;
  }
  // WAL lets readers run beside one writer; a writer waits (busy timeout)
  // for another.
  {
    Stmt W(Raw, "PRAGMA journal_mode=WAL");
    if (!W.ok() || W.step() != SQLITE_ROW) {
      Error = Db->fail("cannot enable WAL mode");
      return nullptr;
    }
  }
  if (!Db->exec("PRAGMA foreign_keys=ON", Error))
    return nullptr;
  return Db;
}

std::string ProfileDb::meta(const std::string &Key) {
  Stmt S(Db, "SELECT value FROM meta WHERE key = ?1");
  if (!S.ok())
    return "";
  S.bind(1, Key);
  return S.step() == SQLITE_ROW ? S.text(0) : "";
}

bool ProfileDb::setMeta(const std::string &Key, const std::string &Value,
                        std::string &Error) {
  Stmt S(Db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)");
  if (!S.ok() || S.bind(1, Key).bind(2, Value).step() != SQLITE_DONE) {
    Error = fail("cannot write meta '" + Key + "'");
    return false;
  }
  return true;
}

int64_t ProfileDb::beginRun(const std::string &CommandLine,
                            const DataTuple &Sizes, std::string &Error) {
  Stmt S(Db, "INSERT INTO runs (command_line, sizes) VALUES (?1, ?2)");
  if (!S.ok() ||
      S.bind(1, CommandLine).bind(2, dataToJson(Sizes)).step() != SQLITE_DONE) {
    Error = fail("cannot record run");
    return -1;
  }
  return sqlite3_last_insert_rowid(Db);
}

bool ProfileDb::endRun(int64_t Run, const std::string &Status,
                       std::string &Error) {
  Stmt S(Db, "UPDATE runs SET status = ?2, "
             "end_time = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?1");
  if (!S.ok() || S.bind(1, Run).bind(2, Status).step() != SQLITE_DONE) {
    Error = fail("cannot end run");
    return false;
  }
  if (sqlite3_changes(Db) != 1) {
    Error = Path + ": no run " + std::to_string(Run);
    return false;
  }
  return true;
}

int64_t ProfileDb::findKernel(const std::string &Name,
                              const std::string &SpecText) {
  Stmt S(Db, "SELECT id FROM kernels WHERE name = ?1 AND spec_hash = ?2 "
             "AND spec = ?3");
  if (!S.ok())
    return -1;
  S.bind(1, Name).bind(2, specHash(SpecText)).bind(3, SpecText);
  return S.step() == SQLITE_ROW ? S.i64(0) : -1;
}

int64_t ProfileDb::recordKernel(const std::string &Name,
                                const std::string &SpecText,
                                std::string &Error) {
  Stmt S(Db, "INSERT OR IGNORE INTO kernels (name, spec, spec_hash) "
             "VALUES (?1, ?2, ?3)");
  if (!S.ok() || S.bind(1, Name).bind(2, SpecText).bind(3, specHash(SpecText))
                         .step() != SQLITE_DONE) {
    Error = fail("cannot record kernel '" + Name + "'");
    return -1;
  }
  int64_t Id = findKernel(Name, SpecText);
  if (Id < 0)
    Error = Path + ": kernel '" + Name + "' has a spec hash collision";
  return Id;
}

int64_t ProfileDb::recordSweep(int64_t Run, int64_t Kernel,
                               const DataTuple &Data,
                               const uint32_t RequestedGrid[3],
                               const uint32_t RequestedBlock[3],
                               const std::vector<Sample> &Samples,
                               std::string &Error) {
  for (const auto &KV : Data)
    if (!isIdentifier(KV.first)) {
      Error = Path + ": data parameter name '" + KV.first +
              "' is not an identifier";
      return -1;
    }
  Transaction T(Db);
  if (!T.began()) {
    Error = fail("cannot begin transaction");
    return -1;
  }
  Stmt L(Db, "INSERT INTO launches (run_id, kernel_id, data, grid_x, grid_y, "
             "grid_z, block_x, block_y, block_z) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  if (!L.ok()) {
    Error = fail("cannot record launch");
    return -1;
  }
  L.bind(1, Run).bind(2, Kernel).bind(3, dataToJson(Data));
  for (int I = 0; I < 3; ++I) {
    L.bind(4 + I, (int64_t)RequestedGrid[I]);
    L.bind(7 + I, (int64_t)RequestedBlock[I]);
  }
  if (L.step() != SQLITE_DONE) {
    Error = fail("cannot record launch");
    return -1;
  }
  int64_t Launch = sqlite3_last_insert_rowid(Db);
  if (!insertSamples(Launch, Samples, Error))
    return -1;
  if (!T.commit()) {
    Error = fail("cannot commit launch");
    return -1;
  }
  return Launch;
}

bool ProfileDb::insertSamples(int64_t Launch, const std::vector<Sample> &Samples,
                              std::string &Error) {
  Stmt S(Db, "INSERT INTO samples (launch_id, block_x, block_y, block_z, "
             "grid_x, grid_y, grid_z, registers, shared_bytes, time_ns, "
             "status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  Stmt M(Db, "INSERT OR REPLACE INTO metrics (sample_id, key, value) "
             "VALUES (?1, ?2, ?3)");
  if (!S.ok() || !M.ok()) {
    Error = fail("cannot record sample");
    return false;
  }
  for (const Sample &Smp : Samples) {
    S.reset();
    S.bind(1, Launch);
    for (int I = 0; I < 3; ++I) {
      S.bind(2 + I, (int64_t)Smp.Block[I]);
      S.bind(5 + I, (int64_t)Smp.Grid[I]);
    }
    S.bind(8, Smp.Registers).bind(9, Smp.SharedBytes).bind(10, Smp.TimeNs);
    S.bind(11, Smp.Status);
    if (S.step() != SQLITE_DONE) {
      Error = fail("cannot record sample");
      return false;
    }
    int64_t SampleId = sqlite3_last_insert_rowid(Db);
    for (const auto &[Key, Value] : Smp.Metrics) {
      M.reset();
      M.bind(1, SampleId).bind(2, Key).bind(3, Value);
      if (M.step() != SQLITE_DONE) {
        Error = fail("cannot record metric '" + Key + "'");
        return false;
      }
    }
  }
  return true;
}

bool ProfileDb::appendSamples(int64_t Launch, const std::vector<Sample> &Samples,
                              std::string &Error) {
  if (Samples.empty())
    return true;
  Transaction T(Db);
  if (!T.began()) {
    Error = fail("cannot begin transaction");
    return false;
  }
  if (!insertSamples(Launch, Samples, Error))
    return false;
  if (!T.commit()) {
    Error = fail("cannot commit samples");
    return false;
  }
  return true;
}

bool ProfileDb::hasSample(int64_t Kernel, const DataTuple &Data,
                          const uint32_t Block[3]) {
  Stmt S(Db, "SELECT 1 FROM samples s JOIN launches l ON s.launch_id = l.id "
             "WHERE l.kernel_id = ?1 AND l.data = ?2 AND s.block_x = ?3 "
             "AND s.block_y = ?4 AND s.block_z = ?5 LIMIT 1");
  if (!S.ok())
    return false;
  S.bind(1, Kernel).bind(2, dataToJson(Data));
  for (int I = 0; I < 3; ++I)
    S.bind(3 + I, (int64_t)Block[I]);
  return S.step() == SQLITE_ROW;
}

std::string KernelRow::sourceName() const {
  // The spec's second line is `kernel NAME` (docs/spec-format.md).
  size_t Pos = 0;
  while (Pos < Spec.size()) {
    size_t End = Spec.find('\n', Pos);
    if (End == std::string::npos)
      End = Spec.size();
    if (Spec.compare(Pos, 7, "kernel ") == 0 && End > Pos + 7)
      return Spec.substr(Pos + 7, End - Pos - 7);
    Pos = End + 1;
  }
  return Name;
}

std::string KernelRow::displayName() const {
  std::string Source = sourceName();
  return Source == Name ? Name : Source + " (" + Name + ")";
}

/// \p Name without the template arguments at its end: `ns::axpy<float>`
/// -> `ns::axpy`; the name itself when it has none.
static std::string withoutTemplateArgs(const std::string &Name) {
  if (Name.empty() || Name.back() != '>')
    return Name;
  int Depth = 0;
  for (size_t I = Name.size(); I-- > 0;) {
    Depth += Name[I] == '>' ? 1 : Name[I] == '<' ? -1 : 0;
    if (Depth == 0)
      return I > 0 ? Name.substr(0, I) : Name;
  }
  return Name;
}

bool KernelRow::isNamed(const std::string &Query) const {
  std::string Source = sourceName();
  return Query == Name || Query == Source ||
         withoutTemplateArgs(Source) == Query;
}

std::string klaraptor::profiledb::noSuchKernelText(const std::string &Query, const std::string &File,
                             const std::vector<KernelRow> &Rows) {
  std::string S = "no kernel '" + Query + "' in " + File;
  std::set<std::string> Seen;
  std::string Names;
  for (const KernelRow &R : Rows)
    if (Seen.insert(R.Name).second)
      Names += (Names.empty() ? "" : ", ") + R.displayName();
  return S + (Names.empty() ? " (it has none)" : "; its kernels: " + Names);
}

bool ProfileDb::kernels(std::vector<KernelRow> &Rows, std::string &Error) {
  Rows.clear();
  Stmt S(Db, "SELECT id, name, spec FROM kernels ORDER BY id");
  if (!S.ok()) {
    Error = fail("cannot query kernels");
    return false;
  }
  int Rc;
  while ((Rc = S.step()) == SQLITE_ROW)
    Rows.push_back({S.i64(0), S.text(1), S.text(2)});
  if (Rc != SQLITE_DONE) {
    Error = fail("cannot query kernels");
    return false;
  }
  return true;
}

bool ProfileDb::hasRun(int64_t Run) {
  Stmt S(Db, "SELECT 1 FROM runs WHERE id = ?1");
  if (!S.ok())
    return false;
  S.bind(1, Run);
  return S.step() == SQLITE_ROW;
}

bool ProfileDb::hasCompletedRun(const std::string &CommandLine) {
  Stmt S(Db, "SELECT 1 FROM runs WHERE command_line = ?1 AND status = 'ok' "
             "LIMIT 1");
  if (!S.ok())
    return false;
  S.bind(1, CommandLine);
  return S.step() == SQLITE_ROW;
}

bool ProfileDb::samplesOf(int64_t Kernel, std::vector<SampleRow> &Rows,
                          std::string &Error) {
  Rows.clear();
  Stmt S(Db, "SELECT s.id, l.id, l.data, s.block_x, s.block_y, s.block_z, "
             "s.grid_x, s.grid_y, s.grid_z, s.registers, s.shared_bytes, "
             "s.time_ns, s.status FROM samples s JOIN launches l "
             "ON s.launch_id = l.id WHERE l.kernel_id = ?1 "
             "ORDER BY l.id, s.id");
  Stmt M(Db, "SELECT key, value FROM metrics WHERE sample_id = ?1");
  if (!S.ok() || !M.ok()) {
    Error = fail("cannot query samples");
    return false;
  }
  S.bind(1, Kernel);
  int Rc;
  while ((Rc = S.step()) == SQLITE_ROW) {
    SampleRow R;
    R.LaunchId = S.i64(1);
    const std::string Where = Path + ": sample " + std::to_string(S.i64(0)) +
                              " (launch " + std::to_string(R.LaunchId) + ")";
    if (!dataFromJson(S.text(2), R.Data)) {
      Error = Path + ": launch " + std::to_string(R.LaunchId) +
              " has malformed data '" + S.text(2) + "'";
      return false;
    }
    // Values are checked as they are read: a database edited by hand or
    // by another tool must not turn into a silently wrong fit.
    static const char *const Dims[] = {"block_x", "block_y", "block_z",
                                       "grid_x",  "grid_y",  "grid_z"};
    for (int I = 0; I < 6; ++I) {
      int64_t V = S.i64(3 + I);
      if (!S.isNumber(3 + I) || V < 1 || V > 0x7fffffff) {
        Error = Where + ": " + Dims[I] + " is '" + S.text(3 + I) +
                "', not a positive dimension";
        return false;
      }
      (I < 3 ? R.Block[I] : R.Grid[I - 3]) = uint32_t(V);
    }
    for (int C : {9, 10})
      if (!S.isNumber(C) || S.i64(C) < 0) {
        Error = Where + ": " + (C == 9 ? "registers" : "shared_bytes") +
                " is '" + S.text(C) + "', not a count";
        return false;
      }
    R.Registers = S.i64(9);
    R.SharedBytes = S.i64(10);
    R.TimeNs = S.dbl(11);
    R.Status = S.text(12);
    // A failed sample may have no time (NaN is stored as NULL); a usable
    // one has a finite, non-negative time.
    if (R.Status == "ok" &&
        (!S.isNumber(11) || !std::isfinite(R.TimeNs) || R.TimeNs < 0)) {
      Error = Where + ": status ok with time_ns '" + S.text(11) +
              "' (expected a finite number >= 0)";
      return false;
    }
    M.reset();
    M.bind(1, S.i64(0));
    int MRc;
    while ((MRc = M.step()) == SQLITE_ROW) {
      // Every metric is a count, a size, a time or a rate (docs/metrics.md):
      // a negative one is a damaged database, not a value to fit.
      if (!M.isNumber(1) || !std::isfinite(M.dbl(1)) || M.dbl(1) < 0) {
        Error = Where + ": metric '" + M.text(0) + "' is '" + M.text(1) +
                "', not a finite number >= 0";
        return false;
      }
      R.Metrics[M.text(0)] = M.dbl(1);
    }
    if (MRc != SQLITE_DONE) {
      Error = fail("cannot query metrics");
      return false;
    }
    Rows.push_back(std::move(R));
  }
  if (Rc != SQLITE_DONE) {
    Error = fail("cannot query samples");
    return false;
  }
  return true;
}
