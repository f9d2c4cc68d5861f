"""Readers producing (encoded bytes, label) datasets for tfgpuaug pipelines."""
from tfgpuaug.data.readers import IMAGE_EXTENSIONS, file_list, image_folder, shard_for
from tfgpuaug.data.tfrecord import tfrecord

__all__ = ["IMAGE_EXTENSIONS", "file_list", "image_folder", "shard_for", "tfrecord"]
