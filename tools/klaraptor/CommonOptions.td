//===- CommonOptions.td - what every klaraptor subcommand accepts ---------===//
//
// Each subcommand's options are a table of their own, NAMEOptions.td beside
// the command (llvm::opt, as clang's driver and llvm-objcopy's tools have
// theirs): one spelling means different things in two subcommands (`fit
// --json` prints JSON, `bench --json FILE` writes it), which one table
// cannot hold. Each includes this file; Options.h parses with the tables.
//
//===----------------------------------------------------------------------===//

include "llvm/Option/OptParser.td"

// A list: the arguments after the option that are not options are its
// values too (`--in a.jsonl b.jsonl`).
def ListValues : OptionFlag;

// An option with a value, `--NAME VALUE` or `--NAME=VALUE`.
multiclass Value<string name, list<OptionFlag> flags = []> {
  def NAME : Separate<["--"], name>, Flags<flags>;
  def NAME#_eq : Joined<["--"], name#"=">, Alias<!cast<Separate>(NAME)>,
                 Flags<flags>;
}

def help : Flag<["--"], "help">;
def h : Flag<["-"], "h">, Alias<help>;
