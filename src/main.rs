fn main() -> std::process::ExitCode {
    bonescope::app::main()
}
