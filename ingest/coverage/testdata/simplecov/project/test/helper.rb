# frozen_string_literal: true

# Starts SimpleCov for one test command. Its formatter writes the summary
# SimpleCov itself computes for the merged result (all commands so far) to
# coverage/summary.json, so the fixture's expected counts are the tool's own.
require "simplecov"
require "json"

class SummaryFormatter
  def format(result)
    File.write(File.join(SimpleCov.coverage_path, "summary.json"), JSON.pretty_generate(
      "command_name" => result.command_name,
      "covered_lines" => result.covered_lines,
      "missed_lines" => result.missed_lines,
      "total_lines" => result.total_lines,
      "covered_percent" => result.covered_percent,
      "files" => result.files.map do |f|
        file = { "filename" => f.filename, "covered_lines" => f.covered_lines.size,
                 "missed_lines" => f.missed_lines.size, "never_lines" => f.never_lines.size }
        if SimpleCov.branch_coverage?
          file["covered_branches"] = f.covered_branches.size
          file["total_branches"] = f.total_branches.size
        end
        file
      end
    ) + "\n")
  end
end

SimpleCov.command_name ENV.fetch("PART")
SimpleCov.formatter = SummaryFormatter
SimpleCov.start do
  add_filter "/test/"
  enable_coverage :branch if ENV["BRANCHES"] # branches/make.sh
end
