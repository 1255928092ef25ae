fn main() -> std::process::ExitCode {
    bonescope::cli::main()
}
