fn main() {
    std::process::exit(idem::cli::idem::main());
}
